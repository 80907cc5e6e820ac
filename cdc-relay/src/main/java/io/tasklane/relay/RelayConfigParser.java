package io.tasklane.relay;

import io.tasklane.core.TopicReplication;
import io.tasklane.core.config.ConfigException;
import io.tasklane.core.config.ConfigKeys;
import io.tasklane.core.config.ConfigSource;
import io.tasklane.relay.RelayConfig.ConnectorKind;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/** Turns layered {@code tasklane.relay.*} settings into a {@link RelayConfig}. Stateless. */
final class RelayConfigParser {
  /** The duration settings; {@code <key>-ms} is refused, naming {@code <key>}. */
  static final List<String> DURATIONS =
      List.of(
          "poll-interval",
          "offset-flush-interval",
          "heartbeat-interval",
          "purge-interval",
          "retention",
          "lock-wait",
          "leader-check-interval",
          "binlog-guard-interval",
          "max-send-backoff");

  /** Every setting of the relay, without the prefix. */
  static final ConfigKeys KEYS = keys();

  private RelayConfigParser() {}

  private static ConfigKeys keys() {
    List<String> plain =
        new java.util.ArrayList<>(
            List.of(
                "jdbc-url",
                "username",
                "password",
                "bootstrap-servers",
                "namespace",
                "connector",
                "name",
                "server-id",
                "table",
                "schema",
                "slot-name",
                "slot-warn-percent",
                "max-payload-bytes",
                "purge-batch-size",
                "binlog-guard-min-files",
                "http-port",
                "http-host",
                "http-port-file",
                "tasks-partitions",
                TopicReplication.FACTOR_KEY,
                TopicReplication.MIN_ISR_KEY,
                TopicReplication.ALLOW_UNSAFE_KEY));
    plain.addAll(DURATIONS);
    Map<String, String> retired = new TreeMap<>();
    for (String d : DURATIONS) {
      retired.put(
          d + "-ms",
          "renamed to '"
              + RelayConfig.PREFIX
              + d
              + "', a duration such as 500ms, 30s or 1h (append ms to the old value)");
    }
    return ConfigKeys.of(RelayConfig.PREFIX, plain, List.of("kafka.", "debezium."))
        .withRetired(retired);
  }

  /** Checks {@code properties} (full names, no layering) and builds the config from them. */
  static RelayConfig parse(Map<String, String> properties) {
    return parse(() -> ConfigSource.of(KEYS, properties));
  }

  /** Builds the config from a source made by {@code source}, core errors as relay errors. */
  static RelayConfig parse(Supplier<ConfigSource> source) {
    try {
      return build(source.get());
    } catch (ConfigException e) {
      throw new InvalidRelayConfigException(e.key(), e.problem());
    }
  }

  private static RelayConfig build(ConfigSource c) {
    ConnectorKind connector = c.enumValue("connector", ConnectorKind.class);
    return RelayConfig.builder()
        .jdbcUrl(c.string("jdbc-url"))
        .username(c.string("username"))
        .password(c.string("password"))
        .bootstrapServers(c.string("bootstrap-servers"))
        .namespace(c.string("namespace"))
        .connector(connector)
        .name(c.string("name"))
        .serverId(c.number("server-id", 0))
        .table(c.string("table"))
        .schema(c.string("schema"))
        .slotName(c.string("slot-name"))
        .slotWarnPercent(c.integer("slot-warn-percent", 0))
        .pollInterval(c.duration("poll-interval"))
        .offsetFlushInterval(c.duration("offset-flush-interval"))
        .heartbeatInterval(c.duration("heartbeat-interval"))
        .maxPayloadBytes(c.integer("max-payload-bytes", 0))
        .purgeInterval(c.duration("purge-interval"))
        .retention(c.duration("retention"))
        .purgeBatchSize(c.integer("purge-batch-size", 0))
        .lockWait(c.duration("lock-wait"))
        .leaderCheckInterval(c.duration("leader-check-interval"))
        .binlogGuardInterval(c.duration("binlog-guard-interval"))
        .binlogGuardMinFiles(
            c.integer("binlog-guard-min-files", RelayConfig.DEFAULT_BINLOG_GUARD_MIN_FILES))
        .httpPort(c.integer("http-port", RelayConfig.DEFAULT_HTTP_PORT))
        .httpHost(c.string("http-host"))
        .httpPortFile(c.string("http-port-file"))
        .tasksPartitions(c.integer("tasks-partitions", 0))
        .replication(TopicReplication.read(c))
        .maxSendBackoff(c.duration("max-send-backoff"))
        .kafka(c.passThrough("kafka."))
        .debezium(c.passThrough("debezium."))
        .build();
  }
}
