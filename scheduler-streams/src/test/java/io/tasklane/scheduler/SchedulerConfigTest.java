package io.tasklane.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchedulerConfigTest {
  private static SchedulerConfig config(int partitions, Duration interval, String guarantee) {
    return new SchedulerConfig(
        "localhost:9092",
        null,
        null,
        partitions,
        interval,
        5_000,
        guarantee,
        0,
        null,
        null,
        100,
        null,
        SchedulerConfig.DEFAULT_MAX_DISPATCHED,
        null,
        null,
        Map.of(),
        Map.of("0123456789abcdef", SchedulerConfig.Role.VIEWER));
  }

  @Test
  void fillsDefaults() {
    SchedulerConfig c = config(6, null, null);
    assertThat(c.namespace()).isEqualTo("tasklane");
    assertThat(c.applicationId()).isEqualTo("tasklane-scheduler");
    assertThat(c.punctuationInterval()).isEqualTo(SchedulerConfig.DEFAULT_PUNCTUATION_INTERVAL);
    assertThat(c.processingGuarantee()).isEqualTo("at_least_once");
    assertThat(c.retention()).isEqualTo(Duration.ofDays(7));
    assertThat(c.stateDir().toString()).doesNotStartWith("/tmp");
  }

  @Test
  void rejectsValuesOutsideTheirLimitsNamingTheKey() {
    assertThatThrownBy(() -> config(0, null, null))
        .isInstanceOf(SchedulerException.class)
        .hasMessage("tasklane.scheduler.partitions: 0 is outside 1 to 10000");
    assertThatThrownBy(() -> config(6, Duration.ofMillis(1), null))
        .hasMessageStartingWith("tasklane.scheduler.punctuation-interval: PT0.001S is outside");
    assertThatThrownBy(() -> config(6, null, "exactly_once"))
        .hasMessageContaining("tasklane.scheduler.processing-guarantee");
  }
}
