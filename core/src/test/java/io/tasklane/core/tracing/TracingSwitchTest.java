package io.tasklane.core.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a Tasklane app builds an OpenTelemetry SDK: only when asked for. */
class TracingSwitchTest {

  private static boolean wanted(Map<String, String> settings) {
    return Tracing.wanted(settings::get);
  }

  @Test
  void offWithoutOtelSettings() {
    assertThat(wanted(Map.of())).isFalse();
    assertThat(Tracing.fromSettings("io.tasklane.worker", "w", k -> null).enabled()).isFalse();
  }

  @Test
  void onWhenATracesExporterOtherThanNoneIsNamed() {
    assertThat(wanted(Map.of("otel.traces.exporter", "otlp"))).isTrue();
    assertThat(wanted(Map.of("otel.traces.exporter", "logging-otlp"))).isTrue();
    assertThat(wanted(Map.of("otel.traces.exporter", "none"))).isFalse();
    assertThat(wanted(Map.of("otel.traces.exporter", " NONE "))).isFalse();
  }

  @Test
  void onWhenTheSdkIsExplicitlyEnabledAndDisabledAlwaysWins() {
    assertThat(wanted(Map.of("otel.sdk.disabled", "false"))).isTrue();
    assertThat(wanted(Map.of("otel.sdk.disabled", "true", "otel.traces.exporter", "otlp")))
        .isFalse();
  }
}
