package io.tasklane.scheduler.internal;

import io.micronaut.core.naming.conventions.StringConvention;
import io.micronaut.core.value.PropertyResolver;
import io.tasklane.scheduler.ApiToken;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
        tokens(props),
        props
            .getProperty(P + "max-waiters-per-task", Integer.class)
            .orElse(SchedulerConfig.DEFAULT_MAX_WAITERS_PER_TASK),
        props.getProperty(P + "inter-instance-token", String.class).orElse(null));
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
   * {@code api.tokens} as a list {@code name:token:role,...} (or the older {@code token:role},
   * named after a hash of the token), or as a map: {@code api.tokens.<name>: token:role} (or the
   * older {@code api.tokens.<token>: role}).
   */
  private static List<ApiToken> tokens(PropertyResolver props) {
    List<String[]> entries = new ArrayList<>(); // {name or null, token, role}
    Map<String, String> raw = strings(props.getProperties(P + "api.tokens", StringConvention.RAW));
    if (raw.isEmpty()) {
      String list = props.getProperty(P + "api.tokens", String.class).orElse("");
      for (String entry : list.split(",")) {
        if (!entry.isBlank()) {
          entries.add(split(entry.trim()));
        }
      }
    } else {
      raw.forEach(
          (k, v) ->
              entries.add(
                  v.contains(":")
                      ? new String[] {k, v.substring(0, v.lastIndexOf(':')), after(v)}
                      : new String[] {null, k, v}));
    }
    List<ApiToken> out = new ArrayList<>();
    for (String[] e : entries) {
      SchedulerConfig.Role role = role(e[2]);
      out.add(e[0] == null ? ApiToken.unnamed(e[1], role) : new ApiToken(e[0], e[1], role));
    }
    return out;
  }

  private static String[] split(String entry) {
    int first = entry.indexOf(':');
    int last = entry.lastIndexOf(':');
    if (first < 0) {
      throw new SchedulerException(
          P + "api.tokens: '" + abbreviate(entry) + "' is not name:token:role");
    }
    return first == last
        ? new String[] {null, entry.substring(0, first).trim(), after(entry)}
        : new String[] {
          entry.substring(0, first).trim(), entry.substring(first + 1, last).trim(), after(entry)
        };
  }

  private static String after(String entry) {
    return entry.substring(entry.lastIndexOf(':') + 1).trim();
  }

  private static SchedulerConfig.Role role(String role) {
    try {
      return SchedulerConfig.Role.valueOf(role.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new SchedulerException(
          P + "api.tokens: role '" + role + "' must be viewer or operator");
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 4 ? "****" : s.substring(0, 4) + "****";
  }
}
