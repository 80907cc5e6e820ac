package io.tasklane.core;

/**
 * How the topics an app creates are replicated, and whether it runs on topics that a single broker
 * loss can empty. Every app reads the same three settings under its own prefix ({@code
 * replication-factor}, {@code min-insync-replicas}, {@code allow-unsafe-replication}); their
 * defaults follow the cluster the app connects to (see {@link #resolve(int)}). Immutable; any
 * thread.
 *
 * @param replicationFactor replicas of each partition of a topic the app creates, 1 to 32767; -1
 *     (default) derives it from the cluster: {@code min(3, brokers)}
 * @param minInsyncReplicas {@code min.insync.replicas} of a topic the app creates, 1 to the
 *     replication factor; -1 (default) derives it: 2 when the factor is 3 or more, else 1
 * @param allowUnsafe true runs even when an existing Tasklane topic on a multi-broker cluster has a
 *     single replica, or {@code min.insync.replicas=1} with three or more replicas (each is logged
 *     as a warning); false (default) refuses to start, naming the topic and the fix
 */
public record TopicReplication(int replicationFactor, int minInsyncReplicas, boolean allowUnsafe) {

  /** The value of a setting that follows the cluster. */
  public static final int AUTO = -1;

  /** The most replicas a derived factor asks for. */
  public static final int MAX_DERIVED_FACTOR = 3;

  /** Factor and min ISR from the cluster, unsafe topics refused. */
  public static final TopicReplication DEFAULT = new TopicReplication(AUTO, AUTO, false);

  /** The setting keys, relative to an app's prefix. */
  public static final String FACTOR_KEY = "replication-factor";

  public static final String MIN_ISR_KEY = "min-insync-replicas";
  public static final String ALLOW_UNSAFE_KEY = "allow-unsafe-replication";

  /** Validates both numbers; the message names the setting and its limit. */
  public TopicReplication {
    if (replicationFactor != AUTO
        && (replicationFactor < 1 || replicationFactor > Short.MAX_VALUE)) {
      throw new IllegalArgumentException(
          FACTOR_KEY + " must be -1 (follow the cluster) or 1 to 32767, got " + replicationFactor);
    }
    if (minInsyncReplicas != AUTO && minInsyncReplicas < 1) {
      throw new IllegalArgumentException(
          MIN_ISR_KEY + " must be -1 (follow the cluster) or at least 1, got " + minInsyncReplicas);
    }
    if (replicationFactor != AUTO
        && minInsyncReplicas != AUTO
        && minInsyncReplicas > replicationFactor) {
      throw new IllegalArgumentException(
          MIN_ISR_KEY
              + " must be at most "
              + FACTOR_KEY
              + " ("
              + replicationFactor
              + "), got "
              + minInsyncReplicas
              + ": no write could ever be acknowledged");
    }
  }

  /** The three keys, for an app's list of settings. */
  public static java.util.List<String> keys() {
    return java.util.List.of(FACTOR_KEY, MIN_ISR_KEY, ALLOW_UNSAFE_KEY);
  }

  /**
   * Reads the three settings from an app's layered configuration; a bad value fails with a {@link
   * io.tasklane.core.config.ConfigException} naming the full key and its limit.
   */
  public static TopicReplication read(io.tasklane.core.config.ConfigSource c) {
    int factor = c.integer(FACTOR_KEY, AUTO);
    int minIsr = c.integer(MIN_ISR_KEY, AUTO);
    boolean allow = c.bool(ALLOW_UNSAFE_KEY, false);
    try {
      return new TopicReplication(factor, minIsr, allow);
    } catch (IllegalArgumentException e) {
      String key = e.getMessage().startsWith(FACTOR_KEY) ? FACTOR_KEY : MIN_ISR_KEY;
      throw new io.tasklane.core.config.ConfigException(c.full(key), e.getMessage());
    }
  }

  /**
   * The factor and min ISR for a cluster of {@code brokers} live brokers: the configured values, or
   * {@code min(3, brokers)} and 2 for a factor of 3 or more (1 below).
   */
  public Resolved resolve(int brokers) {
    int live = Math.max(1, brokers);
    int factor = replicationFactor == AUTO ? Math.min(MAX_DERIVED_FACTOR, live) : replicationFactor;
    int minIsr =
        minInsyncReplicas == AUTO ? (factor >= 3 ? 2 : 1) : Math.min(minInsyncReplicas, factor);
    return new Resolved((short) factor, minIsr, live, allowUnsafe);
  }

  /**
   * The replication an app applies on a cluster of {@code brokers} brokers.
   *
   * @param factor replicas of each partition of a topic it creates
   * @param minInsyncReplicas {@code min.insync.replicas} of a topic it creates
   * @param brokers live brokers when resolved
   * @param allowUnsafe see {@link TopicReplication#allowUnsafe()}
   */
  public record Resolved(short factor, int minInsyncReplicas, int brokers, boolean allowUnsafe) {
    /**
     * True when unsafe topics are run on with a warning: {@code allow-unsafe-replication}, or a
     * factor of 1 or a min ISR of 1 with three or more replicas that the app was configured with (a
     * derived pair is never unsafe).
     */
    public boolean acceptsUnsafe() {
      return allowUnsafe || factor < 2 && brokers > 1 || factor >= 3 && minInsyncReplicas < 2;
    }
  }
}
