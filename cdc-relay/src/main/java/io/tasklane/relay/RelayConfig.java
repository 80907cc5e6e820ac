package io.tasklane.relay;

import static io.tasklane.relay.RelayConfigChecks.check;
import static io.tasklane.relay.RelayConfigChecks.require;
import static io.tasklane.relay.RelayConfigChecks.within;

import io.tasklane.core.SecretMasker;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TopicReplication;
import io.tasklane.core.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every setting of one relay instance, validated. Build it with {@link #builder()}, or from
 * properties with {@link #fromProperties} (keys {@code tasklane.relay.*}, see {@link
 * RelayConfigLoader} for the environment / system property / file layering). Durations are written
 * {@code 20ms}, {@code 30s}, {@code 1h} (docs/operations.md, Configuration). Immutable and
 * thread-safe.
 *
 * @param jdbcUrl {@code jdbc:mariadb://host:port/db} (or {@code jdbc:mysql:}, {@code
 *     jdbc:postgresql:}) of the outbox database
 * @param username database user with the CDC grants (REPLICATION SLAVE, BINLOG MONITOR, ...; on
 *     PostgreSQL the REPLICATION attribute)
 * @param password its password
 * @param bootstrapServers Kafka bootstrap servers
 * @param namespace topic namespace ({@link Topics}), default {@code tasklane}
 * @param connector which Debezium connector to use; {@code AUTO} takes PostgreSQL from the URL and
 *     otherwise asks {@code SELECT VERSION()}
 * @param name engine name and Debezium {@code topic.prefix}; keys the stored offsets; default
 *     {@code tasklane_relay_<db>} (plus {@code _<schema>} outside {@code public})
 * @param serverId the binlog client's {@code server_id}, unique among the server's replicas
 * @param table the outbox table
 * @param schema PostgreSQL only: the schema of the outbox table, default {@code public}
 * @param slotName PostgreSQL only: the logical replication slot and publication of this relay
 *     group, {@code [a-z0-9_]}, at most 63 characters; derived from the database when unset
 * @param pollInterval Debezium {@code poll.interval.ms}: the latency floor; default 20 ms, 5 ms on
 *     PostgreSQL ({@link #DEFAULT_POSTGRES_POLL_INTERVAL})
 * @param offsetFlushInterval how often acknowledged offsets are stored (bounds replays after crash)
 * @param heartbeatInterval Debezium heartbeats, so an idle relay's offset keeps up with the binlog
 * @param maxPayloadBytes payload limit of relayed tasks (rows above it go to the DLT)
 * @param purgeInterval how often relayed rows are purged; {@code 0} disables purge
 * @param retention relayed rows younger than this are kept
 * @param purgeBatchSize rows per DELETE statement, 1 to 1000
 * @param lockWait how long one {@code GET_LOCK} call waits before a standby loops
 * @param leaderCheckInterval how often the leader checks its lock connection and engine
 * @param binlogGuardInterval how often the binlog guard compares the offset with the server (on
 *     PostgreSQL: how often the slot guard reads the replication slot)
 * @param binlogGuardMinFiles warn when fewer binlog files than this precede the offset's file
 * @param slotWarnPercent PostgreSQL only: warn when the slot's retained WAL reaches this percentage
 *     of {@code max_slot_wal_keep_size}, 1 to 100 (default 80)
 * @param httpPort health and metrics port; 0 picks a free port, -1 disables HTTP
 * @param httpHost address the health and metrics endpoint binds to, default {@code 127.0.0.1}
 *     ({@code 0.0.0.0} for every interface, e.g. in a container)
 * @param httpPortFile if set, the bound HTTP port is written to this file (for scripts)
 * @param tasksPartitions partitions of {@code <ns>.tasks} when the relay creates it
 * @param replication {@code replication-factor}, {@code min-insync-replicas} and {@code
 *     allow-unsafe-replication} of the topics the relay creates and checks; null: {@link
 *     TopicReplication#DEFAULT}, which follows the cluster (three replicas and a min ISR of 2 on
 *     three or more brokers)
 * @param maxSendBackoff longest wait between retries while Kafka refuses records
 * @param kafka pass-through Kafka client settings ({@code tasklane.relay.kafka.*}, e.g. SASL/TLS),
 *     applied to the producer, the admin client and Debezium's offset and history clients
 * @param debezium pass-through Debezium settings ({@code tasklane.relay.debezium.*}); they win
 */
public record RelayConfig(
    String jdbcUrl,
    String username,
    String password,
    String bootstrapServers,
    String namespace,
    ConnectorKind connector,
    String name,
    long serverId,
    String table,
    String schema,
    String slotName,
    Duration pollInterval,
    Duration offsetFlushInterval,
    Duration heartbeatInterval,
    int maxPayloadBytes,
    Duration purgeInterval,
    Duration retention,
    int purgeBatchSize,
    Duration lockWait,
    Duration leaderCheckInterval,
    Duration binlogGuardInterval,
    int binlogGuardMinFiles,
    int slotWarnPercent,
    int httpPort,
    String httpHost,
    String httpPortFile,
    int tasksPartitions,
    TopicReplication replication,
    Duration maxSendBackoff,
    Map<String, String> kafka,
    Map<String, String> debezium) {

  /** Prefix of every setting. */
  public static final String PREFIX = "tasklane.relay.";

  public static final String DEFAULT_TABLE = "tasklane_outbox";
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(20);

  /**
   * The default {@link #pollInterval} on PostgreSQL: its connector waits it twice, once in its
   * replication stream loop (a pause after five empty reads) and once in the engine's batch wait.
   */
  public static final Duration DEFAULT_POSTGRES_POLL_INTERVAL = Duration.ofMillis(5);

  public static final Duration DEFAULT_OFFSET_FLUSH_INTERVAL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(10);
  public static final Duration DEFAULT_PURGE_INTERVAL = Duration.ofMinutes(1);
  public static final Duration DEFAULT_RETENTION = Duration.ofHours(1);
  public static final int DEFAULT_PURGE_BATCH_SIZE = 1000;
  public static final int MAX_PURGE_BATCH_SIZE = 1000;
  public static final Duration DEFAULT_LOCK_WAIT = Duration.ofSeconds(2);
  public static final Duration DEFAULT_LEADER_CHECK_INTERVAL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_BINLOG_GUARD_INTERVAL = Duration.ofSeconds(30);
  public static final int DEFAULT_BINLOG_GUARD_MIN_FILES = 1;
  public static final String DEFAULT_SCHEMA = "public";
  public static final int DEFAULT_SLOT_WARN_PERCENT = 80;
  public static final int DEFAULT_HTTP_PORT = 8086;
  public static final String DEFAULT_HTTP_HOST = "127.0.0.1";
  public static final int DEFAULT_TASKS_PARTITIONS = 6;
  public static final Duration DEFAULT_MAX_SEND_BACKOFF = Duration.ofSeconds(30);

  private static final Pattern URL =
      Pattern.compile(
          "jdbc:(mariadb|mysql|postgresql)://([^:/?,]+)(?::(\\d+))?/([A-Za-z0-9_$]+)(\\?.*)?");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,100}");
  private static final Pattern TABLE = Pattern.compile("[A-Za-z0-9_]{1,64}");
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.:%\\[\\]-]{1,255}");

  /** Which Debezium connector streams the change log. */
  public enum ConnectorKind {
    AUTO,
    MARIADB,
    MYSQL,
    POSTGRESQL
  }

  public RelayConfig {
    Matcher m = URL.matcher(require("jdbc-url", jdbcUrl));
    check(
        "jdbc-url",
        m.matches(),
        "'"
            + jdbcUrl
            + "' must look like jdbc:mariadb://host:port/database (or jdbc:mysql:,"
            + " jdbc:postgresql:)");
    require("username", username);
    password = password == null ? "" : password;
    require("bootstrap-servers", bootstrapServers);
    namespace = namespace == null ? Topics.DEFAULT_NAMESPACE : namespace;
    try {
      new Topics(namespace);
    } catch (RuntimeException e) {
      throw new InvalidRelayConfigException(PREFIX + "namespace", e.getMessage());
    }
    connector = connector == null ? ConnectorKind.AUTO : connector;
    RelayConfigChecks.connectorMatches(connector, m.group(1), SecretMasker.maskText(jdbcUrl));
    String db = m.group(4);
    schema = RelayConfigChecks.schema(schema, m.group(1).equals("postgresql"));
    name = name == null ? RelayConfigChecks.defaultName(db, schema) : name;
    check("name", NAME.matcher(name).matches(), "'" + name + "' must match " + NAME.pattern());
    serverId = serverId == 0 ? defaultServerId(db) : serverId;
    check("server-id", serverId > 0 && serverId < 4_294_967_296L, "must be 1 to 4294967295");
    table = table == null ? DEFAULT_TABLE : table;
    check("table", TABLE.matcher(table).matches(), "'" + table + "' must match " + TABLE.pattern());
    slotName = RelayConfigChecks.slotName(slotName, db, schema);
    pollInterval =
        within(
            "poll-interval",
            pollInterval,
            m.group(1).equals("postgresql")
                ? DEFAULT_POSTGRES_POLL_INTERVAL
                : DEFAULT_POLL_INTERVAL,
            1,
            60_000);
    offsetFlushInterval =
        within(
            "offset-flush-interval",
            offsetFlushInterval,
            DEFAULT_OFFSET_FLUSH_INTERVAL,
            10,
            600_000);
    heartbeatInterval =
        within("heartbeat-interval", heartbeatInterval, DEFAULT_HEARTBEAT_INTERVAL, 0, 3_600_000);
    maxPayloadBytes = maxPayloadBytes == 0 ? TaskLimits.DEFAULT_MAX_PAYLOAD_BYTES : maxPayloadBytes;
    check(
        "max-payload-bytes",
        maxPayloadBytes >= 1 && maxPayloadBytes <= TaskLimits.HARD_MAX_PAYLOAD_BYTES,
        maxPayloadBytes + " is outside 1 to " + TaskLimits.HARD_MAX_PAYLOAD_BYTES + " (1 MiB)");
    purgeInterval = within("purge-interval", purgeInterval, DEFAULT_PURGE_INTERVAL, 0, 86_400_000);
    retention = within("retention", retention, DEFAULT_RETENTION, 0, 365L * 86_400_000);
    purgeBatchSize = purgeBatchSize == 0 ? DEFAULT_PURGE_BATCH_SIZE : purgeBatchSize;
    check(
        "purge-batch-size",
        purgeBatchSize >= 1 && purgeBatchSize <= MAX_PURGE_BATCH_SIZE,
        purgeBatchSize + " is outside 1 to " + MAX_PURGE_BATCH_SIZE);
    lockWait = within("lock-wait", lockWait, DEFAULT_LOCK_WAIT, 1000, 60_000);
    leaderCheckInterval =
        within(
            "leader-check-interval",
            leaderCheckInterval,
            DEFAULT_LEADER_CHECK_INTERVAL,
            50,
            60_000);
    binlogGuardInterval =
        within(
            "binlog-guard-interval",
            binlogGuardInterval,
            DEFAULT_BINLOG_GUARD_INTERVAL,
            100,
            3_600_000);
    check("binlog-guard-min-files", binlogGuardMinFiles >= 0, "must be ≥ 0");
    slotWarnPercent =
        RelayConfigChecks.percent("slot-warn-percent", slotWarnPercent, DEFAULT_SLOT_WARN_PERCENT);
    check("http-port", httpPort >= -1 && httpPort <= 65535, httpPort + " is outside -1 to 65535");
    httpHost = httpHost == null || httpHost.isBlank() ? DEFAULT_HTTP_HOST : httpHost;
    check(
        "http-host",
        HOST.matcher(httpHost).matches(),
        "'" + httpHost + "' must be a host name or IP address (" + HOST.pattern() + ")");
    tasksPartitions = tasksPartitions == 0 ? DEFAULT_TASKS_PARTITIONS : tasksPartitions;
    check(
        "tasks-partitions",
        tasksPartitions >= 1 && tasksPartitions <= 10_000,
        "is outside 1 to 10000");
    replication = replication == null ? TopicReplication.DEFAULT : replication;
    maxSendBackoff =
        within("max-send-backoff", maxSendBackoff, DEFAULT_MAX_SEND_BACKOFF, 100, 600_000);
    kafka = Map.copyOf(kafka == null ? Map.of() : kafka);
    debezium = Map.copyOf(debezium == null ? Map.of() : debezium);
  }

  /** A builder with every setting unset: the defaults above apply. */
  public static RelayConfigBuilder builder() {
    return new RelayConfigBuilder();
  }

  /**
   * Parses {@code tasklane.relay.*} properties (no layering); unknown keys are refused naming the
   * nearest known one.
   */
  public static RelayConfig fromProperties(Map<String, String> properties) {
    return RelayConfigParser.parse(properties);
  }

  /** The database name in {@link #jdbcUrl}. */
  public String database() {
    return group(4);
  }

  /** Database host from {@link #jdbcUrl}. */
  public String host() {
    return group(2);
  }

  /** Database port from {@link #jdbcUrl} (3306, or 5432 for PostgreSQL, when absent). */
  public int port() {
    String p = group(3);
    return p != null ? Integer.parseInt(p) : postgres() ? 5432 : 3306;
  }

  /** True when {@link #jdbcUrl} names a PostgreSQL database ({@code jdbc:postgresql:}). */
  public boolean postgres() {
    return group(1).equals("postgresql");
  }

  /** The outbox table as SQL names it: {@code schema.table} on PostgreSQL, else {@code table}. */
  public String qualifiedTable() {
    return postgres() ? schema + "." + table : table;
  }

  /** The topic names of {@link #namespace}. */
  public Topics topics() {
    return new Topics(namespace);
  }

  /**
   * The name of the lock that elects this database's leader (≤ 64 characters): the MySQL named lock
   * or the key of the PostgreSQL advisory lock. A PostgreSQL outbox outside {@code public} has its
   * own lock (and slot), so relays of two schemas of one database both lead.
   */
  public String lockName() {
    String lock =
        "tasklane_relay_" + database() + (schema.equals(DEFAULT_SCHEMA) ? "" : "_" + schema);
    return lock.length() <= 64
        ? lock
        : lock.substring(0, 50) + "_" + Integer.toHexString(lock.hashCode());
  }

  /** The settings for logs: no password; secret-like keys and URL credentials masked. */
  @Override
  public String toString() {
    return RelayConfigChecks.describe(this);
  }

  private String group(int g) {
    Matcher m = URL.matcher(jdbcUrl);
    if (!m.matches()) {
      throw new IllegalStateException("validated in the constructor");
    }
    return m.group(g);
  }

  private static long defaultServerId(String db) {
    return 5_400_000L + (db.hashCode() & 0x3FFFFF);
  }
}
