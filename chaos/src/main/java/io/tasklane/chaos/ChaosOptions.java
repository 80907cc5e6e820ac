package io.tasklane.chaos;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What a chaos run does. Validated on construction; errors name the field and its limit.
 *
 * @param home the Tasklane checkout (modules' {@code target} dirs hold the apps' classpaths)
 * @param cycles kill -9 cycles (1–10,000)
 * @param rate tasks offered per second (1–20,000)
 * @param minGap shortest time between two kills (≥ 1 s)
 * @param maxGap longest time between two kills (≥ minGap)
 * @param brokerRestart restart the Kafka broker once, mid-load
 * @param mariaDbRestart restart MariaDB once, mid-load
 * @param binlogPurge stop the relay, purge the binlog, start the relay again
 * @param drainTimeout how long the drain after the load may take
 * @param seed seed of the random victim and gap choices
 */
public record ChaosOptions(
    Path home,
    int cycles,
    int rate,
    Duration minGap,
    Duration maxGap,
    boolean brokerRestart,
    boolean mariaDbRestart,
    boolean binlogPurge,
    Duration drainTimeout,
    long seed) {

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
    if (drainTimeout == null || drainTimeout.isNegative() || drainTimeout.isZero()) {
      throw new IllegalArgumentException(
          "ChaosOptions.drainTimeout must be positive, got " + drainTimeout);
    }
  }

  /** The full suite of issue 9 with default numbers. */
  public static ChaosOptions defaults(Path home) {
    return new ChaosOptions(
        home,
        DEFAULT_CYCLES,
        DEFAULT_RATE,
        DEFAULT_MIN_GAP,
        DEFAULT_MAX_GAP,
        true,
        true,
        true,
        DEFAULT_DRAIN_TIMEOUT,
        42);
  }

  public ChaosOptions withCycles(int value) {
    return new ChaosOptions(
        home,
        value,
        rate,
        minGap,
        maxGap,
        brokerRestart,
        mariaDbRestart,
        binlogPurge,
        drainTimeout,
        seed);
  }

  public ChaosOptions withRate(int value) {
    return new ChaosOptions(
        home,
        cycles,
        value,
        minGap,
        maxGap,
        brokerRestart,
        mariaDbRestart,
        binlogPurge,
        drainTimeout,
        seed);
  }

  public ChaosOptions withGaps(Duration min, Duration max) {
    return new ChaosOptions(
        home,
        cycles,
        rate,
        min,
        max,
        brokerRestart,
        mariaDbRestart,
        binlogPurge,
        drainTimeout,
        seed);
  }

  /** Which of the three stack faults to inject. */
  public ChaosOptions withFaults(boolean broker, boolean mariaDb, boolean purge) {
    return new ChaosOptions(
        home, cycles, rate, minGap, maxGap, broker, mariaDb, purge, drainTimeout, seed);
  }

  public ChaosOptions withDrainTimeout(Duration value) {
    return new ChaosOptions(
        home,
        cycles,
        rate,
        minGap,
        maxGap,
        brokerRestart,
        mariaDbRestart,
        binlogPurge,
        value,
        seed);
  }

  public ChaosOptions withSeed(long value) {
    return new ChaosOptions(
        home,
        cycles,
        rate,
        minGap,
        maxGap,
        brokerRestart,
        mariaDbRestart,
        binlogPurge,
        drainTimeout,
        value);
  }

  private static void check(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "ChaosOptions." + field + " must be in " + min + "–" + max + ", got " + value);
    }
  }
}
