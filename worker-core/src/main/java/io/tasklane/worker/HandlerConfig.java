package io.tasklane.worker;

import java.time.Duration;

/**
 * Settings of one handler, under {@code tasklane.worker.handlers.<name>.*}; build it with {@link
 * #builder()}.
 *
 * @param enabled {@code enabled}: false leaves the handler's topic unconsumed by this worker
 * @param concurrency {@code concurrency}: threads of the handler's own pool (1 to {@value
 *     #MAX_CONCURRENCY}), default {@link WorkerConfig#concurrency()}
 * @param maxInFlight {@code max-in-flight}: dispatches in the handler's pool (running or queued for
 *     a thread); fetching pauses at this number (and while 1,000 or {@code max-in-flight},
 *     whichever is larger, results wait for their ack). Default {@code 2 × concurrency}; at least
 *     {@code concurrency}
 * @param timeout {@code timeout}: execution timeout of one attempt; null = the task's own {@code
 *     timeoutMs}
 * @param partitions {@code partitions}: partitions of the handler topic and its DLT when this
 *     worker creates them
 */
public record HandlerConfig(
    boolean enabled, int concurrency, int maxInFlight, Duration timeout, int partitions) {
  public static final int MAX_CONCURRENCY = 1_000;
  public static final int MAX_IN_FLIGHT = 100_000;
  public static final Duration MAX_TIMEOUT = Duration.ofHours(24);

  public HandlerConfig {
    if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
      throw new WorkerException(
          "concurrency must be 1 to " + MAX_CONCURRENCY + ", was " + concurrency);
    }
    if (maxInFlight < concurrency || maxInFlight > MAX_IN_FLIGHT) {
      throw new WorkerException(
          "max-in-flight must be between concurrency ("
              + concurrency
              + ") and "
              + MAX_IN_FLIGHT
              + ", was "
              + maxInFlight);
    }
    if (timeout != null
        && (timeout.isNegative() || timeout.isZero() || timeout.compareTo(MAX_TIMEOUT) > 0)) {
      throw new WorkerException("timeout must be > 0 and ≤ 24 h, was " + timeout);
    }
    if (partitions < 1 || partitions > 10_000) {
      throw new WorkerException("partitions must be 1 to 10000, was " + partitions);
    }
  }

  /** A builder with every setting unset: the defaults apply. */
  public static HandlerConfigBuilder builder() {
    return new HandlerConfigBuilder();
  }

  /** A builder with the defaults derived from the worker's: its concurrency and partitions. */
  public static HandlerConfigBuilder builder(WorkerConfig worker) {
    return builder().concurrency(worker.concurrency()).partitions(worker.handlerPartitions());
  }

  /** Defaults derived from the worker's: concurrency, 2 × concurrency, the task's timeout. */
  public static HandlerConfig defaults(WorkerConfig worker) {
    return builder(worker).build();
  }
}
