package io.tasklane.scheduler.internal.lifecycle;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One attempt in a task's history, as shown by the status API.
 *
 * @param attempt the dispatch number (the fencing token)
 * @param dispatchedAt epoch millis of the dispatch
 * @param endedAt epoch millis of the result or timeout, 0 while running
 * @param outcome SUCCEEDED, FAILED, RETRY_LATER, PERMANENT_FAILURE, TIMEOUT, or null while running
 * @param error the error message, or null
 * @param worker the worker that answered, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AttemptEntry(
    int attempt, long dispatchedAt, long endedAt, String outcome, String error, String worker) {

  AttemptEntry ended(long at, String newOutcome, String newError, String newWorker) {
    return new AttemptEntry(attempt, dispatchedAt, at, newOutcome, newError, newWorker);
  }
}
