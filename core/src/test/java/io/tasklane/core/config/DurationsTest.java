package io.tasklane.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {
  @Test
  void readsANumberAndAUnitOrIso8601() {
    assertThat(Durations.parse("k", "500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("k", "30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("k", "5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(Durations.parse("k", "1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("k", " 7d ")).isEqualTo(Duration.ofDays(7));
    assertThat(Durations.parse("k", "0s")).isEqualTo(Duration.ZERO);
    assertThat(Durations.parse("k", "1_000ms")).isEqualTo(Duration.ofSeconds(1));
    assertThat(Durations.parse("k", "PT30S")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("k", "P7D")).isEqualTo(Duration.ofDays(7));
  }

  @ParameterizedTest
  @ValueSource(strings = {"30", "", "1.5s", "-1s", "30 sec", "PT", "thirty seconds", "3w"})
  void refusesAnythingElseNamingTheKeyAndTheAcceptedForms(String text) {
    assertThatThrownBy(() -> Durations.parse("tasklane.relay.retention", text))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "tasklane.relay.retention: '"
                + text
                + "' is not a duration: write a number and a unit (500ms, 30s, 5m, 1h, 7d) or"
                + " ISO-8601 (PT30S)");
  }

  @Test
  void formatsWithTheLargestUnitThatDividesTheValue() {
    assertThat(Durations.format(Duration.ofDays(7))).isEqualTo("7d");
    assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(Durations.format(Duration.ofMillis(20))).isEqualTo("20ms");
    assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
  }
}
