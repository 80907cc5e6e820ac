package io.tasklane.chaos;

import io.tasklane.harness.DatabaseKind;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What a chaos run does, made with {@link #builder(Path)}. Validated on construction; errors name
 * the field and its limit.
 *
 * @param home the Tasklane checkout (modules' {@code target} dirs hold the apps' classpaths)
 * @param cycles kill -9 cycles (1–10,000)
 * @param rate tasks offered per second (1–20,000)
 * @param minGap shortest time between two kills (≥ 1 s)
 * @param maxGap longest time between two kills (≥ minGap)
 * @param db the database of the outbox and the effects: MariaDB (default) or PostgreSQL
 * @param brokerRestart restart the Kafka broker once, mid-load
 * @param mariaDbRestart restart MariaDB once, mid-load (MariaDB runs only; skipped with a note on
 *     PostgreSQL, whose testkit server cannot restart on the same port)
 * @param binlogPurge stop the relay, purge the binlog, start the relay again (MariaDB runs only;
 *     PostgreSQL has no binlog, its slot keeps the WAL the relay needs)
 * @param drainTimeout how long the drain after the load may take
 * @param seed seed of the random victim and gap choices
 * @param brokers 1 (the stack's broker) or 3: a private three-broker KRaft cluster at Kafka's own
 *     topic defaults, and the broker faults of {@code BrokerFaults} instead of the single broker's
 *     restart
 */
public record ChaosOptions(
    Path home,
    int cycles,
    int rate,
    Duration minGap,
    Duration maxGap,
    DatabaseKind db,
    boolean brokerRestart,
    boolean mariaDbRestart,
    boolean binlogPurge,
    Duration drainTimeout,
    long seed,
    int brokers) {

  public static final int DEFAULT_CYCLES = 20;
  public static final int DEFAULT_RATE = 1000;
  public static final Duration DEFAULT_MIN_GAP = Duration.ofSeconds(5);
  public static final Duration DEFAULT_MAX_GAP = Duration.ofSeconds(15);
  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofMinutes(10);

  public ChaosOptions {
    if (home == null) {
      throw new IllegalArgumentException("ChaosOptions.home must be set");
    }
    check("cycles", cycles, 1, 10_000);
    check("rate", rate, 1, 20_000);
    if (minGap == null || minGap.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("ChaosOptions.minGap must be at least 1 s, got " + minGap);
    }
    if (maxGap == null || maxGap.compareTo(minGap) < 0) {
      throw new IllegalArgumentException(
          "ChaosOptions.maxGap must be at least minGap (" + minGap + "), got " + maxGap);
    }
    if (db == null) {
      throw new IllegalArgumentException("ChaosOptions.db must be set (mariadb or postgres)");
    }
    if (brokers != 1 && brokers != 3) {
      throw new IllegalArgumentException("ChaosOptions.brokers must be 1 or 3, got " + brokers);
    }
    if (drainTimeout == null || drainTimeout.isNegative() || drainTimeout.isZero()) {
      throw new IllegalArgumentException(
          "ChaosOptions.drainTimeout must be positive, got " + drainTimeout);
    }
  }

  /** The full suite with default numbers. */
  public static ChaosOptions defaults(Path home) {
    return builder(home).build();
  }

  /** A builder holding the {@link #defaults(Path)}; set what differs and call {@code build()}. */
  public static Builder builder(Path home) {
    return new Builder(home);
  }

  /** A builder holding this run's values. */
  public Builder toBuilder() {
    return new Builder(home)
        .cycles(cycles)
        .rate(rate)
        .gaps(minGap, maxGap)
        .db(db)
        .faults(brokerRestart, mariaDbRestart, binlogPurge)
        .drainTimeout(drainTimeout)
        .seed(seed)
        .brokers(brokers);
  }

  /**
   * Collects the settings of a {@link ChaosOptions}; {@link #build()} validates them. Starts from
   * the defaults: {@value #DEFAULT_CYCLES} cycles at {@value #DEFAULT_RATE} tasks/s, 5–15 s gaps,
   * MariaDB, every stack fault, a 10 min drain, seed 42. Not thread-safe.
   */
  public static final class Builder {
    private Path home;
    private int cycles = DEFAULT_CYCLES;
    private int rate = DEFAULT_RATE;
    private Duration minGap = DEFAULT_MIN_GAP;
    private Duration maxGap = DEFAULT_MAX_GAP;
    private DatabaseKind db = DatabaseKind.MARIADB;
    private boolean brokerRestart = true;
    private boolean mariaDbRestart = true;
    private boolean binlogPurge = true;
    private Duration drainTimeout = DEFAULT_DRAIN_TIMEOUT;
    private long seed = 42;
    private int brokers = 1;

    private Builder(Path home) {
      this.home = home;
    }

    /** See {@link ChaosOptions#home()}. */
    public Builder home(Path value) {
      this.home = value;
      return this;
    }

    /** Kill -9 cycles. */
    public Builder cycles(int value) {
      this.cycles = value;
      return this;
    }

    /** Tasks offered per second. */
    public Builder rate(int value) {
      this.rate = value;
      return this;
    }

    /** Shortest and longest time between two kills. */
    public Builder gaps(Duration min, Duration max) {
      this.minGap = min;
      this.maxGap = max;
      return this;
    }

    /** The database of the outbox and the effects. */
    public Builder db(DatabaseKind value) {
      this.db = value;
      return this;
    }

    /** Which of the three stack faults to inject. */
    public Builder faults(boolean broker, boolean mariaDb, boolean purge) {
      this.brokerRestart = broker;
      this.mariaDbRestart = mariaDb;
      this.binlogPurge = purge;
      return this;
    }

    /** How long the drain after the load may take. */
    public Builder drainTimeout(Duration value) {
      this.drainTimeout = value;
      return this;
    }

    /** Seed of the random victim and gap choices. */
    public Builder seed(long value) {
      this.seed = value;
      return this;
    }

    /** 1 (the stack's broker) or 3 (a private cluster with broker faults). */
    public Builder brokers(int value) {
      this.brokers = value;
      return this;
    }

    /** The validated options; the message of a refused value names the field and its limit. */
    public ChaosOptions build() {
      return new ChaosOptions(
          home,
          cycles,
          rate,
          minGap,
          maxGap,
          db,
          brokerRestart,
          mariaDbRestart,
          binlogPurge,
          drainTimeout,
          seed,
          brokers);
    }
  }

  private static void check(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "ChaosOptions." + field + " must be in " + min + "–" + max + ", got " + value);
    }
  }
}
