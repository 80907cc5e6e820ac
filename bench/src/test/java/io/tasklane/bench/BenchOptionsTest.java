package io.tasklane.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.bench.internal.BenchOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchOptionsTest {
  @Test
  void quickModeIsSmallAndScenariosKeepTheirOrder() {
    BenchMain main = new BenchMain();
    new CommandLine(main).parseArgs("--quick", "delay", "throughput");
    BenchOptions o = main.options();
    assertThat(o.scenarios()).containsExactly("throughput", "delay");
    assertThat(o.tasks()).isEqualTo(10_000);
    assertThat(o.pending()).isEqualTo(20_000);
  }

  @Test
  void allScenariosByDefault() {
    BenchMain main = new BenchMain();
    new CommandLine(main).parseArgs();
    assertThat(main.options().scenarios()).isEqualTo(BenchOptions.ALL);
    assertThat(main.options().tasks()).isEqualTo(200_000);
  }

  @Test
  void unknownScenarioIsRefusedByName() {
    BenchMain main = new BenchMain();
    new CommandLine(main).parseArgs("nope");
    assertThatThrownBy(main::options).hasMessageContaining("unknown scenario nope");
  }
}
