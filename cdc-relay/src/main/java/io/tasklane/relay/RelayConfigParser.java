package io.tasklane.relay;

import io.tasklane.relay.RelayConfig.ConnectorKind;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Turns {@code tasklane.relay.*} properties into a {@link RelayConfig}. Stateless. */
final class RelayConfigParser {
  static final String KAFKA = RelayConfig.PREFIX + "kafka.";
  static final String DEBEZIUM = RelayConfig.PREFIX + "debezium.";

  /** Every plain key, without the prefix. */
  static final Set<String> KEYS =
      Set.of(
          "jdbc-url",
          "username",
          "password",
          "bootstrap-servers",
          "namespace",
          "connector",
          "name",
          "server-id",
          "table",
          "poll-interval-ms",
          "offset-flush-interval-ms",
          "heartbeat-interval-ms",
          "max-payload-bytes",
          "purge-interval-ms",
          "retention-ms",
          "purge-batch-size",
          "lock-wait-ms",
          "leader-check-interval-ms",
          "binlog-guard-interval-ms",
          "binlog-guard-min-files",
          "http-port",
          "http-host",
          "http-port-file",
          "tasks-partitions",
          "replication-factor",
          "max-send-backoff-ms");

  private RelayConfigParser() {}

  static RelayConfig parse(Map<String, String> properties) {
    Map<String, String> plain = new HashMap<>();
    Map<String, String> kafka = new TreeMap<>();
    Map<String, String> debezium = new TreeMap<>();
    properties.forEach(
        (k, v) -> {
          if (k.startsWith(KAFKA)) {
            kafka.put(k.substring(KAFKA.length()), v);
          } else if (k.startsWith(DEBEZIUM)) {
            debezium.put(k.substring(DEBEZIUM.length()), v);
          } else if (k.startsWith(RelayConfig.PREFIX)) {
            String key = k.substring(RelayConfig.PREFIX.length());
            if (!KEYS.contains(key)) {
              throw new InvalidRelayConfigException(
                  k, "unknown setting; known: " + new TreeMap<>(toMap(KEYS)).keySet());
            }
            plain.put(key, v == null ? null : v.trim());
          }
        });
    return new RelayConfig(
        plain.get("jdbc-url"),
        plain.get("username"),
        plain.get("password"),
        plain.get("bootstrap-servers"),
        plain.get("namespace"),
        connector(plain.get("connector")),
        plain.get("name"),
        longOf(plain, "server-id", 0),
        plain.get("table"),
        millis(plain, "poll-interval-ms"),
        millis(plain, "offset-flush-interval-ms"),
        millis(plain, "heartbeat-interval-ms"),
        (int) longOf(plain, "max-payload-bytes", 0),
        millis(plain, "purge-interval-ms"),
        millis(plain, "retention-ms"),
        (int) longOf(plain, "purge-batch-size", 0),
        millis(plain, "lock-wait-ms"),
        millis(plain, "leader-check-interval-ms"),
        millis(plain, "binlog-guard-interval-ms"),
        (int) longOf(plain, "binlog-guard-min-files", RelayConfig.DEFAULT_BINLOG_GUARD_MIN_FILES),
        (int) longOf(plain, "http-port", RelayConfig.DEFAULT_HTTP_PORT),
        plain.get("http-host"),
        plain.get("http-port-file"),
        (int) longOf(plain, "tasks-partitions", 0),
        (short) longOf(plain, "replication-factor", -1),
        millis(plain, "max-send-backoff-ms"),
        kafka,
        debezium);
  }

  private static Map<String, String> toMap(Set<String> keys) {
    Map<String, String> m = new HashMap<>();
    keys.forEach(k -> m.put(k, ""));
    return m;
  }

  private static ConnectorKind connector(String value) {
    if (value == null || value.isEmpty()) {
      return ConnectorKind.AUTO;
    }
    try {
      return ConnectorKind.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidRelayConfigException(
          RelayConfig.PREFIX + "connector", "'" + value + "' is not one of auto, mariadb, mysql");
    }
  }

  private static Duration millis(Map<String, String> plain, String key) {
    String v = plain.get(key);
    return v == null || v.isEmpty() ? null : Duration.ofMillis(longOf(plain, key, 0));
  }

  private static long longOf(Map<String, String> plain, String key, long dflt) {
    String v = plain.get(key);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      return Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new InvalidRelayConfigException(
          RelayConfig.PREFIX + key, "'" + v + "' is not a number");
    }
  }
}
