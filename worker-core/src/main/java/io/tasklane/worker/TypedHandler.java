package io.tasklane.worker;

import io.tasklane.core.TaskType;

/**
 * A handler bound to a declared {@link TaskType}: it receives the tasks of the type's name, the
 * payload bound to the type's payload class. Make the class a bean ({@code @Singleton}); the worker
 * finds every {@code TypedHandler} bean when it starts.
 *
 * <pre>{@code
 * @Singleton
 * class CancelOrder implements TypedHandler<OrderRef> {
 *   public TaskType<OrderRef> type() { return OrderTasks.ORDER_CANCEL; }
 *   public void handle(OrderRef ref, TaskContext ctx) { ... }
 * }
 * }</pre>
 *
 * <p>Start-up fails, naming the beans, when two handlers (typed, {@link TaskHandler} classes or
 * methods) share a name, or when the class's type argument is not the type's payload class.
 *
 * <p>Called on one of the handler's pool threads, possibly concurrently (up to the handler's {@code
 * concurrency}), so implementations must be thread-safe. No transaction is open; use {@link
 * TaskContext#inTransaction} to write to the database exactly once. Outcomes are those of {@link
 * Handler}: return → SUCCEEDED; {@link RetryableTaskException} → RETRY_LATER; {@link
 * PermanentTaskException} → PERMANENT_FAILURE; anything else (or the timeout) → FAILED.
 *
 * @param <P> the payload type, the type's payload class
 */
public interface TypedHandler<P> {
  /** The task type handled; read once, on the start-up thread. */
  TaskType<P> type();

  /**
   * Runs one attempt of a task.
   *
   * @param payload the task payload bound to the type's payload class
   * @param context the attempt: id, attempt, deadline, logger, cancellation, transactions
   * @throws Exception to fail the attempt (see the outcome mapping above)
   */
  void handle(P payload, TaskContext context) throws Exception;
}
