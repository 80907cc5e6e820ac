package io.tasklane.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Validated settings of a {@link LocalStack}, made with {@link #builder()} (or {@link #toBuilder()}
 * of another config). Immutable; safe to share between threads.
 *
 * @param baseDir directory holding the MariaDB datadir, the Kafka log dir, logs and {@code
 *     stack.properties}; reused across starts (default {@code $TASKLANE_STACK_DIR} or {@code
 *     target/tasklane-stack} relative to the working directory)
 * @param mariaDbPort TCP port of MariaDB on 127.0.0.1; 0 picks a free port
 * @param kafkaPort PLAINTEXT port of the broker on 127.0.0.1; 0 picks a free port
 * @param kafkaControllerPort KRaft CONTROLLER port on 127.0.0.1; 0 picks a free port
 * @param kafkaHeap maximum heap of the broker JVM, e.g. {@code 512m} (becomes {@code -Xmx})
 * @param kafkaFastStart true (default) runs the broker JVM with C1 only ({@code
 *     -XX:TieredStopAtLevel=1}): about 30% faster start on 2 busy cores, lower peak throughput;
 *     benchmarks set it to false
 * @param innodbFlushLogAtTrxCommit MariaDB {@code innodb-flush-log-at-trx-commit}: 1 is durable, 2
 *     (test default) flushes the redo log once a second
 * @param syncBinlog MariaDB {@code sync-binlog}: 1 fsyncs every commit, 0 (test default) leaves it
 *     to the OS
 * @param startTimeout how long both servers may take to become ready
 * @param detached true for {@code StackMain up}: the servers outlive this JVM (no kill-on-exit
 *     hook, no parent watch, own session)
 * @param deleteOnClose delete {@code baseDir} after {@link LocalStack#close()} stopped the servers
 * @param kafkaSaslSsl true starts the broker with a SASL_SSL (SCRAM-SHA-512) client listener, a CA,
 *     keystore and truststore made by {@code keytool} at start, random passwords, the {@code
 *     StandardAuthorizer} and no access without an ACL (see {@link LocalStack#createKafkaUser});
 *     false (default) is the PLAINTEXT broker
 * @param kafkaBrokers 1 (default): one KRaft broker+controller; 3: a cluster of three combined
 *     broker+controller nodes on loopback with a 3-voter quorum and Kafka's own topic defaults
 *     (replication factor 1, min ISR 1), see {@link LocalStack#kafkaCluster()}; PLAINTEXT only, on
 *     free ports only, and formatted afresh at every start
 * @param kafkaSettings broker settings written over each node's server.properties of a 3-broker
 *     stack (e.g. {@code broker.session.timeout.ms}); must be empty with one broker
 */
public record LocalStackConfig(
    Path baseDir,
    int mariaDbPort,
    int kafkaPort,
    int kafkaControllerPort,
    String kafkaHeap,
    boolean kafkaFastStart,
    int innodbFlushLogAtTrxCommit,
    int syncBinlog,
    Duration startTimeout,
    boolean detached,
    boolean deleteOnClose,
    boolean kafkaSaslSsl,
    int kafkaBrokers,
    Map<String, String> kafkaSettings) {

  /** Environment variable overriding the default {@link #baseDir()}. */
  public static final String STACK_DIR_ENV = "TASKLANE_STACK_DIR";

  private static final Pattern HEAP = Pattern.compile("[1-9][0-9]*[mMgG]");
  private static final Duration MAX_START_TIMEOUT = Duration.ofMinutes(10);

  /** Validates every field; the message names the field and its limit. */
  public LocalStackConfig {
    Objects.requireNonNull(baseDir, "LocalStackConfig.baseDir must not be null");
    baseDir = baseDir.toAbsolutePath().normalize();
    checkPort("mariaDbPort", mariaDbPort);
    checkPort("kafkaPort", kafkaPort);
    checkPort("kafkaControllerPort", kafkaControllerPort);
    if (kafkaHeap == null || !HEAP.matcher(kafkaHeap).matches()) {
      throw new IllegalArgumentException(
          "LocalStackConfig.kafkaHeap must look like 512m or 1g, got " + kafkaHeap);
    }
    if (innodbFlushLogAtTrxCommit < 0 || innodbFlushLogAtTrxCommit > 2) {
      throw new IllegalArgumentException(
          "LocalStackConfig.innodbFlushLogAtTrxCommit must be 0, 1 or 2, got "
              + innodbFlushLogAtTrxCommit);
    }
    if (syncBinlog < 0) {
      throw new IllegalArgumentException(
          "LocalStackConfig.syncBinlog must be >= 0, got " + syncBinlog);
    }
    Objects.requireNonNull(startTimeout, "LocalStackConfig.startTimeout must not be null");
    if (startTimeout.isNegative()
        || startTimeout.isZero()
        || startTimeout.compareTo(MAX_START_TIMEOUT) > 0) {
      throw new IllegalArgumentException(
          "LocalStackConfig.startTimeout must be > 0 and <= 10 minutes, got " + startTimeout);
    }
    if (kafkaBrokers != 1 && kafkaBrokers != 3) {
      throw new IllegalArgumentException(
          "LocalStackConfig.kafkaBrokers must be 1 or 3, got " + kafkaBrokers);
    }
    kafkaSettings = kafkaSettings == null ? Map.of() : Map.copyOf(kafkaSettings);
    if (kafkaBrokers > 1) {
      if (kafkaSaslSsl) {
        throw new IllegalArgumentException(
            "LocalStackConfig.kafkaSaslSsl needs kafkaBrokers 1 (a 3-broker stack is PLAINTEXT)");
      }
      if (kafkaPort != 0 || kafkaControllerPort != 0) {
        throw new IllegalArgumentException(
            "LocalStackConfig.kafkaPort and kafkaControllerPort must be 0 (free ports) with"
                + " kafkaBrokers 3, got "
                + kafkaPort
                + " and "
                + kafkaControllerPort);
      }
    } else if (!kafkaSettings.isEmpty()) {
      throw new IllegalArgumentException(
          "LocalStackConfig.kafkaSettings needs kafkaBrokers 3, got " + kafkaSettings.keySet());
    }
  }

  /**
   * Test defaults: base dir from {@value #STACK_DIR_ENV} or {@code target/tasklane-stack}, free
   * ports, 512m broker heap, fast-start broker JVM, relaxed durability (flush 2, sync-binlog 0), 60
   * s start timeout.
   */
  public static LocalStackConfig defaults() {
    return builder().build();
  }

  /** A builder holding the {@link #defaults()}; set what differs and call {@code build()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this config's values. */
  public Builder toBuilder() {
    return new Builder()
        .baseDir(baseDir)
        .ports(mariaDbPort, kafkaPort, kafkaControllerPort)
        .kafkaHeap(kafkaHeap)
        .kafkaFastStart(kafkaFastStart)
        .durability(innodbFlushLogAtTrxCommit, syncBinlog)
        .startTimeout(startTimeout)
        .detached(detached)
        .deleteOnClose(deleteOnClose)
        .kafkaSaslSsl(kafkaSaslSsl)
        .brokers(kafkaBrokers)
        .kafkaSettings(kafkaSettings);
  }

  /**
   * Collects the settings of a {@link LocalStackConfig}; {@link #build()} validates them. Starts
   * from the {@link LocalStackConfig#defaults()}. Not thread-safe.
   */
  public static final class Builder {
    private Path baseDir = defaultBaseDir();
    private int mariaDbPort;
    private int kafkaPort;
    private int kafkaControllerPort;
    private String kafkaHeap = "512m";
    private boolean kafkaFastStart = true;
    private int innodbFlushLogAtTrxCommit = 2;
    private int syncBinlog;
    private Duration startTimeout = Duration.ofSeconds(60);
    private boolean detached;
    private boolean deleteOnClose;
    private boolean kafkaSaslSsl;
    private int kafkaBrokers = 1;
    private Map<String, String> kafkaSettings = Map.of();

    private Builder() {}

    private static Path defaultBaseDir() {
      String env = System.getenv(STACK_DIR_ENV);
      return env == null || env.isBlank() ? Path.of("target", "tasklane-stack") : Path.of(env);
    }

    /** See {@link LocalStackConfig#baseDir()}. */
    public Builder baseDir(Path value) {
      this.baseDir = value;
      return this;
    }

    /** Ports of MariaDB, the broker and its controller (0 = pick a free one). */
    public Builder ports(int mariaDb, int kafka, int kafkaController) {
      this.mariaDbPort = mariaDb;
      this.kafkaPort = kafka;
      this.kafkaControllerPort = kafkaController;
      return this;
    }

    /** Broker heap, e.g. {@code 1g}. */
    public Builder kafkaHeap(String value) {
      this.kafkaHeap = value;
      return this;
    }

    /** C1-only broker JVM (fast start, default) or full JIT (benchmarks). */
    public Builder kafkaFastStart(boolean value) {
      this.kafkaFastStart = value;
      return this;
    }

    /** MariaDB durability flags; {@code durability(1, 1)} is fully durable. */
    public Builder durability(int flushLogAtTrxCommit, int syncBinlogEvery) {
      this.innodbFlushLogAtTrxCommit = flushLogAtTrxCommit;
      this.syncBinlog = syncBinlogEvery;
      return this;
    }

    /** How long both servers may take to become ready. */
    public Builder startTimeout(Duration value) {
      this.startTimeout = value;
      return this;
    }

    /** Servers that outlive this JVM ({@code StackMain up}). */
    public Builder detached(boolean value) {
      this.detached = value;
      return this;
    }

    /** Delete the base dir on close. */
    public Builder deleteOnClose(boolean value) {
      this.deleteOnClose = value;
      return this;
    }

    /**
     * A broker that listens with SASL_SSL (SCRAM-SHA-512) and authorizes by ACL; see {@link
     * LocalStackConfig#kafkaSaslSsl()}. Meant for a stack of its own: a secured stack is never
     * shared.
     */
    public Builder kafkaSaslSsl(boolean value) {
      this.kafkaSaslSsl = value;
      return this;
    }

    /**
     * 1 (default) or 3 Kafka brokers; see {@link LocalStackConfig#kafkaBrokers()}. With 3, {@link
     * LocalStack#kafkaCluster()} kills, stops and restarts single brokers and tells which leads.
     */
    public Builder brokers(int value) {
      this.kafkaBrokers = value;
      return this;
    }

    /** Broker settings of a 3-broker stack; see {@link LocalStackConfig#kafkaSettings()}. */
    public Builder kafkaSettings(Map<String, String> value) {
      this.kafkaSettings = value;
      return this;
    }

    /** The validated config; the message of a refused value names the field and its limit. */
    public LocalStackConfig build() {
      return new LocalStackConfig(
          baseDir,
          mariaDbPort,
          kafkaPort,
          kafkaControllerPort,
          kafkaHeap,
          kafkaFastStart,
          innodbFlushLogAtTrxCommit,
          syncBinlog,
          startTimeout,
          detached,
          deleteOnClose,
          kafkaSaslSsl,
          kafkaBrokers,
          kafkaSettings);
    }
  }

  private static void checkPort(String field, int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          "LocalStackConfig."
              + field
              + " must be between 0 and 65535 (0 = pick a free port), got "
              + port);
    }
  }
}
