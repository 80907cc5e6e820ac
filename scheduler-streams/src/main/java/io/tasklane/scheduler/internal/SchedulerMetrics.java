package io.tasklane.scheduler.internal;

/**
 * What the topology reports. Called from stream threads; implementations are thread-safe and cheap.
 */
public interface SchedulerMetrics {
  /** Counts one event, e.g. {@code duplicate}, {@code invalid.tasks}, {@code result.fenced}. */
  void count(String event);

  /** A dispatch, {@code latenessMs} after its due time. */
  void dispatched(long latenessMs);

  /** One punctuator scan: how long it took and how many index entries it handled. */
  void scanned(long nanos, int entries);

  /** Reports nothing. */
  SchedulerMetrics NOOP =
      new SchedulerMetrics() {
        @Override
        public void count(String event) {}

        @Override
        public void dispatched(long latenessMs) {}

        @Override
        public void scanned(long nanos, int entries) {}
      };
}
