package io.tasklane.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.bench.internal.BenchOptions;
import io.tasklane.harness.DatabaseKind;
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
    assertThat(o.warmupTasks()).isEqualTo(5_000);
  }

  @Test
  void theWarmUpCanBeSizedOrLeftOut() {
    BenchMain main = new BenchMain();
    new CommandLine(main).parseArgs("--warmup", "0", "throughput");
    assertThat(main.options().warmupTasks()).isZero();
  }

  @Test
  void allScenariosByDefault() {
    BenchMain main = new BenchMain();
    new CommandLine(main).parseArgs();
    assertThat(main.options().scenarios()).isEqualTo(BenchOptions.ALL);
    assertThat(main.options().tasks()).isEqualTo(200_000);
    assertThat(main.options().warmupTasks()).isEqualTo(300_000);
  }

  @Test
  void unknownScenarioIsRefusedByName() {
    BenchMain main = new BenchMain();
    new CommandLine(main).parseArgs("nope");
    assertThatThrownBy(main::options).hasMessageContaining("unknown scenario nope");
  }

  @Test
  void postgresRunsThroughputWithItsOwnKeys() {
    BenchMain main = new BenchMain();
    new CommandLine(main).parseArgs("--quick", "--no-docs", "--db", "postgres");
    BenchOptions o = main.options();
    assertThat(o.db()).isEqualTo(DatabaseKind.POSTGRESQL);
    assertThat(o.scenarios()).containsExactly("throughput");
    assertThat(o.key("relay_rows_per_s")).isEqualTo("pg_relay_rows_per_s");
    assertThat(BenchOptions.builder(o.home()).build().key("relay_rows_per_s"))
        .isEqualTo("relay_rows_per_s");
  }

  @Test
  void postgresRefusesTheMariaDbOnlyScenariosByName() {
    BenchMain main = new BenchMain();
    new CommandLine(main).parseArgs("--db", "postgres", "throughput", "latency");
    assertThatThrownBy(main::options)
        .hasMessageContaining("--db postgres runs [throughput] only")
        .hasMessageContaining("[throughput, latency]");
  }

  @Test
  void schedulerSettingsAreTakenByKeyAndValue() {
    BenchMain main = new BenchMain();
    new CommandLine(main)
        .parseArgs(
            "--scheduler-setting",
            "kafka.num.stream.threads=2",
            "--scheduler-setting",
            "commit-interval=500ms",
            "schedules");
    assertThat(main.options().schedulerSettings())
        .containsOnly(
            java.util.Map.entry("kafka.num.stream.threads", "2"),
            java.util.Map.entry("commit-interval", "500ms"));
    BenchMain bad = new BenchMain();
    new CommandLine(bad).parseArgs("--scheduler-setting", "tasklane.scheduler.x=1", "schedules");
    assertThatThrownBy(bad::options)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'tasklane.scheduler.x' is not a setting name");
    BenchMain none = new BenchMain();
    new CommandLine(none).parseArgs("schedules");
    assertThat(none.options().schedulerSettings()).isEmpty();
  }
}
