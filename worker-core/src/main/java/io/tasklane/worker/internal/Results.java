package io.tasklane.worker.internal;

import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.worker.AlreadyProcessedException;
import io.tasklane.worker.PermanentTaskException;
import io.tasklane.worker.RetryableTaskException;
import java.time.Clock;

/**
 * Builds the results of one attempt, each bound to its dispatch ({@link TaskResult#answering}: the
 * handler and the dispatch's nonce, which the scheduler checks); maps what a handler threw to an
 * outcome.
 */
record Results(Dispatch dispatch, long startedAt, Clock clock, String worker) {

  TaskResult succeeded() {
    return TaskResult.succeeded(
            dispatch.id(), dispatch.attempt(), startedAt, clock.millis(), worker)
        .answering(dispatch);
  }

  TaskResult failure(Outcome outcome, ErrorInfo error, Long retryAfterMs) {
    return TaskResult.failed(
            dispatch.id(),
            dispatch.attempt(),
            outcome,
            error,
            retryAfterMs,
            startedAt,
            clock.millis(),
            worker)
        .answering(dispatch);
  }

  /** The outcome of a handler that threw {@code t}. */
  TaskResult thrown(Throwable t) {
    if (t instanceof AlreadyProcessedException) {
      return succeeded();
    }
    if (t instanceof RetryableTaskException e) {
      Long after = e.retryAfter() == null ? null : e.retryAfter().toMillis();
      return failure(Outcome.RETRY_LATER, ErrorInfo.of(e), after);
    }
    if (t instanceof PermanentTaskException) {
      return failure(Outcome.PERMANENT_FAILURE, ErrorInfo.of(t), null);
    }
    return failure(Outcome.FAILED, ErrorInfo.of(t), null);
  }

  TaskResult timedOut(long timeoutMs) {
    return failure(
        Outcome.FAILED,
        new ErrorInfo(
            "timeout",
            "attempt exceeded its timeout of " + timeoutMs + " ms; handler interrupted",
            null),
        null);
  }

  /** The attempt was stopped by an interrupt: its task was cancelled ({@code reason}). */
  TaskResult cancelled(String reason) {
    return failure(
        Outcome.CANCELLED,
        new ErrorInfo(
            "cancelled",
            "handler interrupted: " + (reason == null ? "task cancelled" : reason),
            null),
        null);
  }

  /**
   * The attempt was not started: its rate-limit slot had passed {@code lateMs} ago ({@link
   * Dispatch#slotMissedBy}).
   */
  TaskResult slotMissed(long lateMs) {
    return failure(
        Outcome.SLOT_MISSED,
        new ErrorInfo(
            "slot-missed",
            "not started: its rate-limit slot passed "
                + lateMs
                + " ms before a thread could start it; the scheduler grants a new slot",
            null),
        null);
  }

  TaskResult expired(String why) {
    return failure(Outcome.FAILED, new ErrorInfo("expired", why, null), null);
  }
}
