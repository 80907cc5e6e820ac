package io.tasklane.scheduler.internal.lifecycle;

/**
 * What the topology reports. Called from stream threads; implementations are thread-safe and cheap.
 */
public interface SchedulerMetrics {
  /**
   * Counts one event, e.g. {@link SchedulerEvent#DUPLICATE}, {@link SchedulerEvent#RESULT_FENCED}.
   */
  void count(SchedulerEvent event);

  /** A dispatch, {@code latenessMs} after its due time. */
  void dispatched(long latenessMs);

  /**
   * A record written to {@code <ns>.scheduler.dlt}: {@code source} is the input ({@code tasks},
   * {@code results}, {@code control}) or {@code timer}; {@code reason} is the DLT reason header.
   */
  void deadLettered(String source, String reason);

  /** One punctuator scan: how long it took and how many index entries it handled. */
  void scanned(long nanos, int entries);

  /**
   * The result of an attempt arrived: {@code roundTripMs} after its dispatch (scheduler clock), of
   * which the handler ran {@code handlerMs} (worker clock). The rest is the attempt's time on the
   * way: in the handler topic and the worker's queue, and its result's way back.
   */
  default void returned(long roundTripMs, long handlerMs) {}

  /** Reports nothing. */
  SchedulerMetrics NOOP =
      new SchedulerMetrics() {
        @Override
        public void count(SchedulerEvent event) {}

        @Override
        public void dispatched(long latenessMs) {}

        @Override
        public void deadLettered(String source, String reason) {}

        @Override
        public void scanned(long nanos, int entries) {}
      };
}
