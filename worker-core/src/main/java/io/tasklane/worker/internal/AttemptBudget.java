package io.tasklane.worker.internal;

import io.tasklane.core.Dispatch;
import java.time.Duration;

/**
 * When one attempt must end, judged on the worker's own clock so that a worker clock ahead of the
 * scheduler's does not expire attempts unrun. The scheduler's deadline is an instant on the
 * scheduler's clock; only its distance from {@code dispatchedAt} (same clock) is used, as a budget
 * counted from the worker's receipt of the dispatch. The handler gets its timeout from the moment a
 * pool thread takes it, within that budget. The scheduler's absolute deadline is only used to skip
 * dispatches so stale that no tolerated skew explains it ({@link #MAX_CLOCK_SKEW}).
 *
 * @param deadlineMs the local instant (worker clock) the attempt is interrupted at
 * @param expired why the attempt is not run at all, or null
 */
record AttemptBudget(long deadlineMs, String expired) {
  /** Skew between the worker's and the scheduler's clocks that never costs an attempt. */
  static final Duration MAX_CLOCK_SKEW = Duration.ofHours(1);

  /**
   * @param receivedAt worker clock, when the consumer thread took the record from Kafka
   * @param startedAt worker clock, when a pool thread took it
   * @param timeoutMs the attempt's timeout (handler setting or the task's)
   */
  static AttemptBudget of(Dispatch d, long timeoutMs, long receivedAt, long startedAt) {
    long deadline = startedAt + timeoutMs;
    if (d.deadline() > 0 && startedAt > d.deadline() + MAX_CLOCK_SKEW.toMillis()) {
      return new AttemptBudget(
          startedAt,
          "the dispatch's deadline passed more than "
              + MAX_CLOCK_SKEW.toMinutes()
              + " min ago by this worker's clock (more than any tolerated clock skew); not run");
    }
    if (d.deadline() > 0 && d.dispatchedAt() > 0 && d.deadline() > d.dispatchedAt()) {
      long windowEnd = receivedAt + (d.deadline() - d.dispatchedAt());
      if (startedAt >= windowEnd) {
        return new AttemptBudget(
            startedAt,
            "the dispatch waited "
                + (startedAt - receivedAt)
                + " ms in this worker for a thread, past the scheduler's budget of "
                + (d.deadline() - d.dispatchedAt())
                + " ms for the attempt; not run");
      }
      deadline = Math.min(deadline, windowEnd);
    }
    return new AttemptBudget(deadline, null);
  }
}
