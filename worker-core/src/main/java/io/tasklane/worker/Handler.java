package io.tasklane.worker;

/**
 * A task handler bean: annotate the class with {@link TaskHandler}. The payload type {@code T} is
 * taken from the type argument and bound from the task's JSON payload with Tasklane's codec (a
 * payload that does not bind sends the dispatch to the handler's dead-letter topic).
 *
 * <p>Called on one of the handler's pool threads, possibly concurrently (up to the handler's {@code
 * concurrency}), so implementations must be thread-safe. No transaction is open; use {@link
 * TaskContext#inTransaction} to write to the database exactly once.
 *
 * <p>Outcomes: return → SUCCEEDED; {@link RetryableTaskException} → RETRY_LATER; {@link
 * PermanentTaskException} → PERMANENT_FAILURE; anything else (or the timeout) → FAILED.
 *
 * @param <T> the payload type
 */
@FunctionalInterface
public interface Handler<T> {
  /**
   * Runs one attempt of a task.
   *
   * @param payload the task payload bound to {@code T}
   * @param context the attempt: id, attempt, deadline, logger, cancellation, transactions
   * @throws Exception to fail the attempt (see the outcome mapping above)
   */
  void handle(T payload, TaskContext context) throws Exception;
}
