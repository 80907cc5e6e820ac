package io.tasklane.relay.internal;

import io.tasklane.relay.RelayConfig;
import java.util.Properties;

/** The Debezium engine and connector configuration of a relay. Stateless. */
final class DebeziumProps {
  static final String MARIADB = "io.debezium.connector.mariadb.MariaDbConnector";
  static final String MYSQL = "io.debezium.connector.mysql.MySqlConnector";
  static final String POSTGRES = "io.debezium.connector.postgresql.PostgresConnector";

  private DebeziumProps() {}

  /** The schema-history consumer's group id: {@code <relay name>-schemahistory}. */
  static String schemaHistoryGroup(RelayConfig c) {
    return c.name() + "-schemahistory";
  }

  /**
   * @param connectorClass {@link #MARIADB}, {@link #MYSQL} or {@link #POSTGRES}
   */
  static Properties of(RelayConfig c, String connectorClass) {
    Properties p = new Properties();
    var topics = c.topics();
    p.setProperty("name", c.name());
    p.setProperty("connector.class", connectorClass);
    p.setProperty("topic.prefix", c.name());
    p.setProperty("database.hostname", c.host());
    p.setProperty("database.port", String.valueOf(c.port()));
    p.setProperty("database.user", c.username());
    p.setProperty("database.password", c.password());
    if (connectorClass.equals(POSTGRES)) {
      postgres(c, p);
    } else {
      binlog(c, p);
    }
    p.setProperty("include.schema.changes", "false");
    p.setProperty("tombstones.on.delete", "false");
    // Debezium's context headers (__debezium.context.*) on every change event: the relay reads the
    // row, never these, and they cost about 1 % of its CPU per row (JFR, docs/performance.md)
    p.setProperty("extended.headers.enabled", "false");
    p.setProperty("poll.interval.ms", String.valueOf(c.pollInterval().toMillis()));
    p.setProperty("heartbeat.interval.ms", String.valueOf(c.heartbeatInterval().toMillis()));
    p.setProperty("offset.flush.interval.ms", String.valueOf(c.offsetFlushInterval().toMillis()));
    p.setProperty("offset.flush.timeout.ms", "10000");
    p.setProperty("offset.storage", RelayOffsetStore.class.getName());
    p.setProperty("offset.storage.topic", topics.relayOffsets());
    p.setProperty("offset.storage.partitions", "1");
    p.setProperty(
        "offset.storage.replication.factor", String.valueOf(c.replication().replicationFactor()));
    p.setProperty("bootstrap.servers", c.bootstrapServers());
    p.setProperty("record.processing.shutdown.timeout.ms", "2000");
    // Kafka client pass-through. Top level: Debezium hands every engine property to the Kafka
    // Connect WorkerConfig, whose originals configure the offset store's producer, consumer and
    // admin (KafkaOffsetBackingStore, and RelayOffsetStore's own admin). Prefixed: the schema
    // history's producer (also its admin, which creates the topic) and consumer.
    c.kafka()
        .forEach(
            (k, v) -> {
              p.setProperty(k, v);
              p.setProperty("schema.history.internal.producer." + k, v);
              p.setProperty("schema.history.internal.consumer." + k, v);
            });
    c.debezium().forEach(p::setProperty);
    return p;
  }

  /** MariaDB/MySQL: the binlog client, its schema history in Kafka. */
  private static void binlog(RelayConfig c, Properties p) {
    p.setProperty("database.server.id", String.valueOf(c.serverId()));
    p.setProperty("database.include.list", c.database());
    p.setProperty("table.include.list", c.database() + "." + c.table());
    // First start (no offsets): snapshot the table, so rows already there are relayed; a restart
    // resumes from the stored offset. The relay handles a purged position itself (BinlogGuard).
    p.setProperty("snapshot.mode", "when_needed");
    p.setProperty("snapshot.locking.mode", "none");
    p.setProperty(
        "schema.history.internal", "io.debezium.storage.kafka.history.KafkaSchemaHistory");
    p.setProperty("schema.history.internal.kafka.topic", c.topics().relayHistory());
    p.setProperty("schema.history.internal.kafka.bootstrap.servers", c.bootstrapServers());
    p.setProperty("schema.history.internal.store.only.captured.tables.ddl", "true");
    p.setProperty("schema.history.internal.store.only.captured.databases.ddl", "true");
    // A fixed consumer group, so the relay's ACLs can name it (the history consumer subscribes).
    p.setProperty("schema.history.internal.consumer.group.id", schemaHistoryGroup(c));
  }

  /**
   * PostgreSQL: logical decoding with the built-in {@code pgoutput} plugin, one replication slot
   * per relay group, and a publication of the outbox table only (created by the connector when
   * missing). No schema history: pgoutput sends the table's columns with the changes.
   */
  private static void postgres(RelayConfig c, Properties p) {
    p.setProperty("database.dbname", c.database());
    p.setProperty("plugin.name", "pgoutput");
    p.setProperty("slot.name", c.slotName());
    p.setProperty("publication.name", c.slotName());
    p.setProperty("publication.autocreate.mode", "filtered");
    p.setProperty("table.include.list", c.schema() + "." + c.table());
    // First start (no offsets): snapshot the table from the slot's exported snapshot, so rows
    // already there are relayed; a restart resumes from the stored LSN. A lost or dropped slot is
    // handled before the engine starts (SlotRecovery): it forgets the offset, so this snapshots.
    p.setProperty("snapshot.mode", "initial");
  }
}
