package io.tasklane.relay;

import io.tasklane.core.config.Durations;
import java.time.Duration;

/** The checks of {@link RelayConfig}'s settings; each failure names the setting. Stateless. */
final class RelayConfigChecks {
  private RelayConfigChecks() {}

  /** {@code value}, refused when it is missing or blank. */
  static String require(String key, String value) {
    if (value == null || value.isBlank()) {
      throw new InvalidRelayConfigException(RelayConfig.PREFIX + key, "is required");
    }
    return value;
  }

  /** Refuses {@code key} with {@code message} unless {@code ok}. */
  static void check(String key, boolean ok, String message) {
    if (!ok) {
      throw new InvalidRelayConfigException(RelayConfig.PREFIX + key, message);
    }
  }

  /** {@code value} (or {@code dflt} when null), refused outside {@code minMs} to {@code maxMs}. */
  static Duration within(String key, Duration value, Duration dflt, long minMs, long maxMs) {
    Duration d = value == null ? dflt : value;
    check(
        key,
        d.toMillis() >= minMs && d.toMillis() <= maxMs,
        Durations.format(d)
            + " is outside "
            + Durations.format(Duration.ofMillis(minMs))
            + " to "
            + Durations.format(Duration.ofMillis(maxMs)));
    return d;
  }
}
