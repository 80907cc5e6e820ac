package io.tasklane.relay;

import java.time.Duration;
import java.util.Map;

/**
 * Builds a {@link RelayConfig} setting by setting; every setting left unset takes its default, and
 * {@link #build()} validates them all. Not thread-safe; use it on one thread.
 */
public final class RelayConfigBuilder {
  private String jdbcUrl;
  private String username;
  private String password;
  private String bootstrapServers;
  private String namespace;
  private RelayConfig.ConnectorKind connector;
  private String name;
  private long serverId;
  private String table;
  private String schema;
  private String slotName;
  private int slotWarnPercent;
  private Duration pollInterval;
  private Duration offsetFlushInterval;
  private Duration heartbeatInterval;
  private int maxPayloadBytes;
  private Duration purgeInterval;
  private Duration retention;
  private int purgeBatchSize;
  private Duration lockWait;
  private Duration leaderCheckInterval;
  private Duration binlogGuardInterval;
  private int binlogGuardMinFiles = RelayConfig.DEFAULT_BINLOG_GUARD_MIN_FILES;
  private int httpPort = RelayConfig.DEFAULT_HTTP_PORT;
  private String httpHost;
  private String httpPortFile;
  private int tasksPartitions;
  private io.tasklane.core.TopicReplication replication;
  private Duration maxSendBackoff;
  private Map<String, String> kafka = Map.of();
  private Map<String, String> debezium = Map.of();

  RelayConfigBuilder() {}

  /** Sets jdbcUrl: {@code jdbc:mariadb://host:port/db} of the outbox database (required). */
  public RelayConfigBuilder jdbcUrl(String jdbcUrl) {
    this.jdbcUrl = jdbcUrl;
    return this;
  }

  /** Sets username: the database user (required). */
  public RelayConfigBuilder username(String username) {
    this.username = username;
    return this;
  }

  /** Sets password: its password. */
  public RelayConfigBuilder password(String password) {
    this.password = password;
    return this;
  }

  /** Sets bootstrapServers: Kafka bootstrap servers (required). */
  public RelayConfigBuilder bootstrapServers(String bootstrapServers) {
    this.bootstrapServers = bootstrapServers;
    return this;
  }

  /** Sets namespace: topic namespace. */
  public RelayConfigBuilder namespace(String namespace) {
    this.namespace = namespace;
    return this;
  }

  /** Sets connector: which Debezium connector to use. */
  public RelayConfigBuilder connector(RelayConfig.ConnectorKind connector) {
    this.connector = connector;
    return this;
  }

  /** Sets name: engine name and Debezium {@code topic.prefix}. */
  public RelayConfigBuilder name(String name) {
    this.name = name;
    return this;
  }

  /** Sets serverId: the binlog client's {@code server_id}; 0 derives one from the database. */
  public RelayConfigBuilder serverId(long serverId) {
    this.serverId = serverId;
    return this;
  }

  /** Sets table: the outbox table. */
  public RelayConfigBuilder table(String table) {
    this.table = table;
    return this;
  }

  /** Sets slotName: the PostgreSQL replication slot and publication; null derives one. */
  public RelayConfigBuilder slotName(String slotName) {
    this.slotName = slotName;
    return this;
  }

  /** Sets pollInterval: Debezium's poll interval. */
  public RelayConfigBuilder pollInterval(Duration pollInterval) {
    this.pollInterval = pollInterval;
    return this;
  }

  /** Sets offsetFlushInterval: how often acknowledged offsets are stored. */
  public RelayConfigBuilder offsetFlushInterval(Duration offsetFlushInterval) {
    this.offsetFlushInterval = offsetFlushInterval;
    return this;
  }

  /** Sets heartbeatInterval: Debezium's heartbeat interval. */
  public RelayConfigBuilder heartbeatInterval(Duration heartbeatInterval) {
    this.heartbeatInterval = heartbeatInterval;
    return this;
  }

  /** Sets maxPayloadBytes: payload limit of relayed tasks; 0 for the default. */
  public RelayConfigBuilder maxPayloadBytes(int maxPayloadBytes) {
    this.maxPayloadBytes = maxPayloadBytes;
    return this;
  }

  /** Sets purgeInterval: how often relayed rows are purged. */
  public RelayConfigBuilder purgeInterval(Duration purgeInterval) {
    this.purgeInterval = purgeInterval;
    return this;
  }

  /** Sets retention: how long relayed rows are kept. */
  public RelayConfigBuilder retention(Duration retention) {
    this.retention = retention;
    return this;
  }

  /** Sets purgeBatchSize: rows per purge statement; 0 for the default. */
  public RelayConfigBuilder purgeBatchSize(int purgeBatchSize) {
    this.purgeBatchSize = purgeBatchSize;
    return this;
  }

  /** Sets lockWait: one {@code GET_LOCK} wait of a standby. */
  public RelayConfigBuilder lockWait(Duration lockWait) {
    this.lockWait = lockWait;
    return this;
  }

  /** Sets leaderCheckInterval: how often the leader checks its lock. */
  public RelayConfigBuilder leaderCheckInterval(Duration leaderCheckInterval) {
    this.leaderCheckInterval = leaderCheckInterval;
    return this;
  }

  /** Sets binlogGuardInterval: how often the binlog guard runs. */
  public RelayConfigBuilder binlogGuardInterval(Duration binlogGuardInterval) {
    this.binlogGuardInterval = binlogGuardInterval;
    return this;
  }

  /** Sets binlogGuardMinFiles: binlog files the guard wants before the offset's file. */
  public RelayConfigBuilder binlogGuardMinFiles(int binlogGuardMinFiles) {
    this.binlogGuardMinFiles = binlogGuardMinFiles;
    return this;
  }

  /** Sets httpPort: health and metrics port; 0 any free port, -1 no HTTP. */
  public RelayConfigBuilder httpPort(int httpPort) {
    this.httpPort = httpPort;
    return this;
  }

  /** Sets httpHost: address the HTTP endpoint binds to. */
  public RelayConfigBuilder httpHost(String httpHost) {
    this.httpHost = httpHost;
    return this;
  }

  /** Sets httpPortFile: file the bound HTTP port is written to. */
  public RelayConfigBuilder httpPortFile(String httpPortFile) {
    this.httpPortFile = httpPortFile;
    return this;
  }

  /**
   * Sets tasksPartitions: partitions of the tasks topic when the relay creates it; 0 for the
   * default.
   */
  public RelayConfigBuilder tasksPartitions(int tasksPartitions) {
    this.tasksPartitions = tasksPartitions;
    return this;
  }

  /**
   * Sets replication: of the topics the relay creates and checks; null follows the cluster ({@link
   * io.tasklane.core.TopicReplication#DEFAULT}).
   */
  public RelayConfigBuilder replication(io.tasklane.core.TopicReplication replication) {
    this.replication = replication;
    return this;
  }

  /** Sets maxSendBackoff: longest wait between send retries. */
  public RelayConfigBuilder maxSendBackoff(Duration maxSendBackoff) {
    this.maxSendBackoff = maxSendBackoff;
    return this;
  }

  /** Sets kafka: pass-through Kafka client settings. */
  public RelayConfigBuilder kafka(Map<String, String> kafka) {
    this.kafka = kafka;
    return this;
  }

  /** Sets debezium: pass-through Debezium settings. */
  public RelayConfigBuilder debezium(Map<String, String> debezium) {
    this.debezium = debezium;
    return this;
  }

  /**
   * The validated configuration.
   *
   * @throws InvalidRelayConfigException naming the first setting that is missing or out of range
   */
  /** Sets schema: PostgreSQL only, the outbox table's schema (default {@code public}). */
  public RelayConfigBuilder schema(String schema) {
    this.schema = schema;
    return this;
  }

  /**
   * Sets slotWarnPercent: PostgreSQL only, warn when the slot retains this percentage of {@code
   * max_slot_wal_keep_size} (1 to 100; 0 = default 80).
   */
  public RelayConfigBuilder slotWarnPercent(int slotWarnPercent) {
    this.slotWarnPercent = slotWarnPercent;
    return this;
  }

  public RelayConfig build() {
    return new RelayConfig(
        jdbcUrl,
        username,
        password,
        bootstrapServers,
        namespace,
        connector,
        name,
        serverId,
        table,
        schema,
        slotName,
        pollInterval,
        offsetFlushInterval,
        heartbeatInterval,
        maxPayloadBytes,
        purgeInterval,
        retention,
        purgeBatchSize,
        lockWait,
        leaderCheckInterval,
        binlogGuardInterval,
        binlogGuardMinFiles,
        slotWarnPercent,
        httpPort,
        httpHost,
        httpPortFile,
        tasksPartitions,
        replication,
        maxSendBackoff,
        kafka,
        debezium);
  }
}
