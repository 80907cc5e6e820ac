package io.tasklane.worker.spi;

import io.tasklane.core.Outcome;

/** Where the runtime reports per-handler metrics; {@link #NOOP} without Micrometer. */
public interface WorkerMetrics {
  WorkerMetrics NOOP = (handler, gauges) -> HandlerMetrics.NOOP;

  HandlerMetrics forHandler(String handler, Gauges gauges);

  /** Live values of one handler, read by gauges from any thread. */
  interface Gauges {
    int inFlight();

    int busyThreads();

    int concurrency();

    long lag();
  }

  /** Event counters of one handler; called from pool, timer and producer threads. */
  interface HandlerMetrics {
    HandlerMetrics NOOP = new HandlerMetrics() {};

    default void started() {}

    default void finished(Outcome outcome, long nanos) {}

    default void timedOut() {}

    default void deadLettered() {}

    default void duplicateSkipped() {}

    /** A dead letter was too large (or else refused for good) and a truncated copy was sent. */
    default void deadLetterTruncated() {}

    /**
     * A result or dead letter was refused for good (e.g. too large even when truncated): logged,
     * dropped, and its offset committed past.
     */
    default void publishDropped() {}
  }
}
