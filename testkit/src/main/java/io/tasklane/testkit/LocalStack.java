package io.tasklane.testkit;

import io.tasklane.testkit.internal.Dirs;
import io.tasklane.testkit.internal.KafkaUsers;
import io.tasklane.testkit.internal.MariaDbAdmin;
import io.tasklane.testkit.internal.PostgresSupport;
import io.tasklane.testkit.internal.SharedStackSupport;
import io.tasklane.testkit.internal.StackInfo;
import io.tasklane.testkit.internal.StackRestarter;
import io.tasklane.testkit.internal.StackStarter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A real MariaDB (binlog ROW/FULL, GTID) and a real KRaft Kafka broker, both child processes bound
 * to 127.0.0.1 on free ports, or an attached stack started elsewhere by {@code bin/stack up}. With
 * {@code LocalStackConfig.Builder.brokers(3)} Kafka is a {@link KafkaCluster} of three combined
 * broker+controller nodes instead ({@link #kafkaCluster()}).
 *
 * <p>Thread-safety: accessors and {@link #createDatabase} may be called from any thread; {@link
 * #start} blocks the calling thread until both servers are ready (about 5 s); {@link #close} is
 * idempotent and blocks until both servers are gone.
 */
public final class LocalStack implements StackHandle, AutoCloseable {

  private static LocalStack shared;

  private static final Duration POSTGRES_START_TIMEOUT = Duration.ofSeconds(60);

  private volatile StackInfo info;
  private LocalPostgres postgres; // guarded by this; started on demand
  private volatile StackStarter.Started started; // null when attached
  private final LocalStackConfig config; // null when attached
  private final boolean deleteOnClose;
  private final AtomicBoolean closed = new AtomicBoolean();
  private KafkaCluster attachedCluster; // guarded by this

  private LocalStack(
      StackInfo info,
      StackStarter.Started started,
      boolean deleteOnClose,
      LocalStackConfig config) {
    this.info = info;
    this.started = started;
    this.deleteOnClose = deleteOnClose;
    this.config = config;
  }

  /** Starts a stack with {@link LocalStackConfig#defaults()}; blocks until it is ready. */
  public static LocalStack start() {
    return start(LocalStackConfig.defaults());
  }

  /**
   * Starts MariaDB and Kafka in parallel; blocks until both are ready.
   *
   * @throws LocalStackException naming the part that failed (with the tail of its log); whatever
   *     was started is stopped again
   */
  public static LocalStack start(LocalStackConfig config) {
    StackStarter.Started started = StackStarter.start(config);
    return new LocalStack(started.info(), started, config.deleteOnClose(), config);
  }

  /**
   * Attaches to a stack started by {@code StackMain up}; {@link #close()} of it does nothing.
   *
   * @throws LocalStackException if the file is missing or its servers are not running
   */
  public static LocalStack attach(Path stackProperties) {
    return new LocalStack(StackInfo.readRunning(stackProperties), null, false, null);
  }

  /**
   * The process-wide stack: attached to {@code -Dtasklane.stack} / {@code $TASKLANE_STACK} (a
   * stack.properties) if set, else started once per JVM in {@code target/tasklane-stacks/<pid>}
   * (killed by a shutdown hook if the JVM exits without closing it). Thread-safe; the first caller
   * blocks while it starts. After {@link #close()}, the next call starts (or attaches) anew.
   */
  public static synchronized LocalStack shared() {
    if (shared == null || shared.closed.get()) {
      Optional<Path> attachTo = SharedStackSupport.attachFile();
      shared =
          attachTo.isPresent() ? attach(attachTo.get()) : start(SharedStackSupport.ownConfig());
    }
    return shared;
  }

  @Override
  public String jdbcUrl() {
    return info.jdbcUrl(StackInfo.DEFAULT_DATABASE);
  }

  @Override
  public String jdbcUrl(String database) {
    MariaDbAdmin.checkName("database", database);
    return info.jdbcUrl(database);
  }

  @Override
  public String username() {
    return info.username();
  }

  @Override
  public String password() {
    return info.password();
  }

  /** JDBC URL for MariaDB's root user (no password, user in the URL, no default database). */
  public String rootJdbcUrl() {
    return info.rootJdbcUrl();
  }

  @Override
  public String bootstrapServers() {
    return info.bootstrapServers();
  }

  /** How many Kafka brokers the stack runs: 1, or 3 for a {@code brokers(3)} stack. */
  public int kafkaBrokers() {
    return info.kafkaBrokers();
  }

  /**
   * The Kafka cluster of a {@code brokers(3)} stack (also when attached to one that {@code
   * bin/stack up --brokers 3} started): kill -9, stop and restart a node by id ({@link
   * KafkaCluster#kill}, {@link KafkaCluster#stop}, {@link KafkaCluster#restart}), and which node
   * leads a topic's partitions ({@link KafkaCluster#leaderOfMostPartitions}) or the controller
   * quorum ({@link KafkaCluster#activeController}). Empty with one broker. The stack closes it: do
   * not.
   */
  public synchronized Optional<KafkaCluster> kafkaCluster() {
    if (!info.isCluster()) {
      return Optional.empty();
    }
    StackStarter.Started s = started;
    if (s != null) {
      return Optional.of(s.cluster());
    }
    if (attachedCluster == null) {
      attachedCluster = KafkaCluster.attach(info.layout().kafkaClusterDir());
    }
    return Optional.of(attachedCluster);
  }

  /**
   * True if the broker's client listener is SASL_SSL with ACLs ({@code
   * LocalStackConfig.Builder.kafkaSaslSsl}).
   */
  public boolean isKafkaSecured() {
    StackStarter.Started s = started;
    return s != null && s.kafka() != null && s.kafka().security() != null; // a cluster: PLAINTEXT
  }

  /**
   * Client settings of the broker's super user without {@code bootstrap.servers}: {@code
   * security.protocol=SASL_SSL}, {@code sasl.mechanism}, {@code sasl.jaas.config}, {@code
   * ssl.truststore.location/password/type}. Empty for a PLAINTEXT broker.
   */
  public Map<String, String> kafkaSecurityProperties() {
    return isKafkaSecured() ? started.kafka().security().adminProperties() : Map.of();
  }

  /**
   * Client settings that log in as {@code user} with {@code password} (which need not be right: for
   * tests of refused logins). Empty for a PLAINTEXT broker.
   */
  public Map<String, String> kafkaSecurityProperties(String user, String password) {
    return isKafkaSecured()
        ? started.kafka().security().clientProperties(user, password)
        : Map.of();
  }

  /** {@link #bootstrapServers()} plus {@link #kafkaSecurityProperties()}: the super user. */
  public Map<String, Object> kafkaAdminProperties() {
    Map<String, Object> p = new HashMap<>(kafkaSecurityProperties());
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    return p;
  }

  /**
   * Creates (or re-keys) SCRAM-SHA-512 user {@code name} with a random password through {@code
   * Admin.alterUserScramCredentials} and blocks until it can log in (up to 30 s). The user has no
   * ACL yet: grant what it needs with an Admin of {@link #kafkaAdminProperties()}.
   *
   * @throws LocalStackException on a PLAINTEXT broker, or if the broker refuses
   */
  public KafkaUser createKafkaUser(String name) {
    return KafkaUsers.create(
        kafkaAdminProperties(), name, isKafkaSecured() ? started.kafka().security() : null);
  }

  /**
   * A private PostgreSQL beside this stack's MariaDB, started on the first call (about 2 s, blocks)
   * in {@code <stack dir>/postgres-<pid of this JVM>} and returned again afterwards. It belongs to
   * this JVM even when the stack is attached (shared): {@link #close()} stops it and deletes its
   * dir, and a shutdown hook does so if the JVM exits first.
   *
   * @throws LocalStackException if PostgreSQL's binaries are missing (the message says how to
   *     install them) or the server does not come up
   */
  public synchronized LocalPostgres postgres() {
    if (closed.get()) {
      throw new LocalStackException("postgres() needs a stack that is not closed");
    }
    if (postgres == null || postgres.isClosed()) {
      Duration timeout = config == null ? POSTGRES_START_TIMEOUT : config.startTimeout();
      postgres = LocalPostgres.start(PostgresSupport.dirFor(info.baseDir()), timeout);
    }
    return postgres;
  }

  /** Drops and re-creates {@code name} (letters, digits, _), grants ALL on it to the app user. */
  @Override
  public String createDatabase(String name) {
    MariaDbAdmin.createFreshDatabase(info.rootJdbcUrl(), name, info.username());
    return info.jdbcUrl(name);
  }

  /** Creates a topic as the broker's super user (so it works on a SASL_SSL broker too). */
  @Override
  public void createTopic(String name, int partitions) {
    KafkaUsers.createTopic(kafkaAdminProperties(), name, partitions);
  }

  public int mariaDbPort() {
    return info.mariaDbPort();
  }

  /** The broker's port; of a {@code brokers(3)} stack: node 1's. */
  public int kafkaPort() {
    return info.kafkaPort();
  }

  /** The broker's KRaft controller port; 0 for a {@code brokers(3)} stack. */
  public int kafkaControllerPort() {
    return info.kafkaControllerPort();
  }

  /** Directory of MariaDB's binary logs ({@code mysql-bin.NNNNNN} and the index). */
  public Path mariaDbBinlogDir() {
    return info.layout().binlogDir();
  }

  public Path baseDir() {
    return info.baseDir();
  }

  public long mariaDbPid() {
    return info.mariaDbPid();
  }

  /** The broker JVM's pid; of a {@code brokers(3)} stack: node 1's as it was started. */
  public long kafkaPid() {
    return info.kafkaPid();
  }

  /**
   * Stops the broker gracefully, waits {@code downtime}, starts it again on the same ports and data
   * dir, and blocks until it is ready (for fault tests; clients reconnect by themselves).
   *
   * @throws LocalStackException for an attached stack or a {@code brokers(3)} stack (restart its
   *     nodes through {@link #kafkaCluster()}), or if the broker does not come back
   */
  public synchronized void restartKafka(Duration downtime) {
    StackStarter.Started s = owned("restartKafka");
    if (s.cluster() != null) {
      throw new LocalStackException(
          "restartKafka needs a one-broker stack; restart the nodes of this one with"
              + " kafkaCluster().stop(id) and restart(id)");
    }
    started = StackRestarter.restartKafka(s, config, downtime);
    info = started.info();
  }

  /**
   * Stops MariaDB gracefully, waits {@code downtime}, starts it again on the same port, data dir
   * and binlogs, and blocks until it accepts connections (for fault tests).
   *
   * @throws LocalStackException for an attached stack, or if MariaDB does not come back
   */
  public synchronized void restartMariaDb(Duration downtime) {
    StackStarter.Started s = owned("restartMariaDb");
    started = StackRestarter.restartMariaDb(s, config, downtime);
    info = started.info();
  }

  private StackStarter.Started owned(String what) {
    StackStarter.Started s = started;
    if (s == null || closed.get()) {
      throw new LocalStackException(what + " needs a stack this object started and has not closed");
    }
    return s;
  }

  /**
   * Stops the detached stack in {@code baseDir} (started with {@code detached(true)} by a run that
   * left it running), as {@code bin/stack down --dir baseDir} does: Kafka, then MariaDB, then any
   * leftover process of the directory; says what it did on {@code out}. Nothing running is fine.
   */
  public static void stopDetached(Path baseDir, java.io.PrintStream out) {
    StackMain.run(new String[] {"down", "--dir", baseDir.toString()}, out);
  }

  /** True if this object attached to a stack it does not own. */
  public boolean isAttached() {
    return started == null;
  }

  /**
   * Stops the PostgreSQL this JVM started ({@link #postgres()}), then Kafka, then MariaDB
   * (graceful, then forcibly); an attached stack stops only its PostgreSQL.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    synchronized (this) {
      if (postgres != null) {
        postgres.close();
      }
    }
    if (started == null) {
      return;
    }
    started.stop();
    if (deleteOnClose) {
      Dirs.deleteRecursively(info.baseDir());
    }
  }

  @Override
  public String toString() {
    return "LocalStack[" + jdbcUrl() + ", " + bootstrapServers() + ", dir " + baseDir() + "]";
  }
}
