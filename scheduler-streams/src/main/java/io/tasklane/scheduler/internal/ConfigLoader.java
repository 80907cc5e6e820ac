package io.tasklane.scheduler.internal;

import io.micronaut.core.naming.conventions.StringConvention;
import io.micronaut.core.value.PropertyResolver;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** Reads {@link SchedulerConfig} from Micronaut's properties ({@code tasklane.scheduler.*}). */
final class ConfigLoader {
  private static final String P = SchedulerConfig.PREFIX + ".";

  private ConfigLoader() {}

  static SchedulerConfig load(PropertyResolver props) {
    return new SchedulerConfig(
        props.getProperty(P + "bootstrap-servers", String.class).orElse(null),
        props.getProperty(P + "namespace", String.class).orElse(null),
        props.getProperty(P + "application-id", String.class).orElse(null),
        props
            .getProperty(P + "partitions", Integer.class)
            .orElse(SchedulerConfig.DEFAULT_PARTITIONS),
        duration(props, "punctuation-interval"),
        props
            .getProperty(P + "scan-bound", Integer.class)
            .orElse(SchedulerConfig.DEFAULT_SCAN_BOUND),
        props.getProperty(P + "processing-guarantee", String.class).orElse(null),
        props
            .getProperty(P + "num-standby-replicas", Integer.class)
            .orElse(SchedulerConfig.DEFAULT_NUM_STANDBY_REPLICAS),
        props.getProperty(P + "state-dir", String.class).map(Path::of).orElse(null),
        duration(props, "retention"),
        props
            .getProperty(P + "snooze-cap", Integer.class)
            .orElse(SchedulerConfig.DEFAULT_SNOOZE_CAP),
        duration(props, "timeout-grace"),
        props
            .getProperty(P + "max-dispatched", Integer.class)
            .orElse(SchedulerConfig.DEFAULT_MAX_DISPATCHED),
        duration(props, "topic-refresh-interval"),
        props.getProperty(P + "advertised-host", String.class).orElse(null),
        strings(props.getProperties(P + "kafka", StringConvention.RAW)),
        tokens(props));
  }

  private static Duration duration(PropertyResolver props, String key) {
    if (!props.containsProperty(P + key)) {
      return null;
    }
    return props
        .getProperty(P + key, Duration.class)
        .orElseThrow(
            () -> new SchedulerException(P + key + ": not a duration (e.g. 100ms, 5s, 7d)"));
  }

  private static Map<String, String> strings(Map<String, Object> raw) {
    Map<String, String> out = new HashMap<>();
    raw.forEach((k, v) -> out.put(k, String.valueOf(v)));
    return out;
  }

  /**
   * {@code api.tokens} as a map ({@code tokens.<token>: role}) or a list {@code token:role,...}.
   */
  private static Map<String, SchedulerConfig.Role> tokens(PropertyResolver props) {
    Map<String, String> raw = strings(props.getProperties(P + "api.tokens", StringConvention.RAW));
    if (raw.isEmpty()) {
      String list = props.getProperty(P + "api.tokens", String.class).orElse("");
      for (String pair : list.split(",")) {
        if (pair.isBlank()) {
          continue;
        }
        int colon = pair.lastIndexOf(':');
        if (colon < 0) {
          throw new SchedulerException(
              P + "api.tokens: '" + abbreviate(pair) + "' is not token:role");
        }
        raw.put(pair.substring(0, colon).trim(), pair.substring(colon + 1).trim());
      }
    }
    Map<String, SchedulerConfig.Role> out = new HashMap<>();
    raw.forEach(
        (token, role) -> {
          try {
            out.put(token, SchedulerConfig.Role.valueOf(role.trim().toUpperCase(Locale.ROOT)));
          } catch (IllegalArgumentException e) {
            throw new SchedulerException(
                P + "api.tokens: role '" + role + "' must be viewer or operator");
          }
        });
    return out;
  }

  private static String abbreviate(String s) {
    return s.length() <= 4 ? "****" : s.substring(0, 4) + "****";
  }
}
