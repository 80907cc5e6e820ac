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
    assertThat(defaults.toBuilder().kafkaFastStart(false).build().kafkaFastStart()).isFalse();
  }

  @Test
  void validationNamesTheFieldAndTheLimit() {
    assertThatThrownBy(() -> defaults.toBuilder().ports(70000, 0, 0).build())
        .hasMessageContaining("mariaDbPort")
        .hasMessageContaining("65535");
    assertThatThrownBy(() -> defaults.toBuilder().ports(0, -1, 0).build())
        .hasMessageContaining("kafkaPort");
    assertThatThrownBy(() -> defaults.toBuilder().kafkaHeap("lots").build())
        .hasMessageContaining("kafkaHeap");
    assertThatThrownBy(() -> defaults.toBuilder().durability(3, 0).build())
        .hasMessageContaining("innodbFlushLogAtTrxCommit")
        .hasMessageContaining("0, 1 or 2");
    assertThatThrownBy(() -> defaults.toBuilder().durability(1, -1).build())
        .hasMessageContaining("syncBinlog");
    assertThatThrownBy(() -> defaults.toBuilder().startTimeout(Duration.ZERO).build())
        .hasMessageContaining("startTimeout");
    assertThatThrownBy(() -> defaults.toBuilder().baseDir(null).build())
        .hasMessageContaining("baseDir");
  }

  @Test
  void toBuilderKeepsTheOtherFields() {
    LocalStackConfig c =
        defaults.toBuilder().baseDir(Path.of("x")).durability(1, 1).detached(true).build();
    assertThat(c.baseDir()).isEqualTo(Path.of("x").toAbsolutePath());
    assertThat(c.innodbFlushLogAtTrxCommit()).isEqualTo(1);
    assertThat(c.syncBinlog()).isEqualTo(1);
    assertThat(c.detached()).isTrue();
    assertThat(c.kafkaHeap()).isEqualTo("512m");
    assertThat(c.toBuilder().build()).isEqualTo(c);
  }
}
