package io.tasklane.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LocalStackConfigTest {

  private final LocalStackConfig defaults = LocalStackConfig.defaults();

  @Test
  void defaultsAreRelaxedTestSettingsOnFreePorts() {
    assertThat(defaults.mariaDbPort()).isZero();
    assertThat(defaults.kafkaHeap()).isEqualTo("512m");
    assertThat(defaults.innodbFlushLogAtTrxCommit()).isEqualTo(2);
    assertThat(defaults.syncBinlog()).isZero();
    assertThat(defaults.baseDir()).isAbsolute();
    assertThat(defaults.detached()).isFalse();
    assertThat(defaults.kafkaFastStart()).isTrue();
    assertThat(defaults.withKafkaFastStart(false).kafkaFastStart()).isFalse();
  }

  @Test
  void validationNamesTheFieldAndTheLimit() {
    assertThatThrownBy(() -> defaults.withPorts(70000, 0, 0))
        .hasMessageContaining("mariaDbPort")
        .hasMessageContaining("65535");
    assertThatThrownBy(() -> defaults.withPorts(0, -1, 0)).hasMessageContaining("kafkaPort");
    assertThatThrownBy(() -> defaults.withKafkaHeap("lots")).hasMessageContaining("kafkaHeap");
    assertThatThrownBy(() -> defaults.withDurability(3, 0))
        .hasMessageContaining("innodbFlushLogAtTrxCommit")
        .hasMessageContaining("0, 1 or 2");
    assertThatThrownBy(() -> defaults.withDurability(1, -1)).hasMessageContaining("syncBinlog");
    assertThatThrownBy(() -> defaults.withStartTimeout(Duration.ZERO))
        .hasMessageContaining("startTimeout");
    assertThatThrownBy(() -> defaults.withBaseDir(null)).hasMessageContaining("baseDir");
  }

  @Test
  void withersKeepTheOtherFields() {
    LocalStackConfig c = defaults.withBaseDir(Path.of("x")).withDurability(1, 1).withDetached(true);
    assertThat(c.baseDir()).isEqualTo(Path.of("x").toAbsolutePath());
    assertThat(c.innodbFlushLogAtTrxCommit()).isEqualTo(1);
    assertThat(c.syncBinlog()).isEqualTo(1);
    assertThat(c.detached()).isTrue();
    assertThat(c.kafkaHeap()).isEqualTo("512m");
  }
}
