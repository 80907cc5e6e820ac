package io.tasklane.worker;

/**
 * Remembers which tasks were processed, so a redelivered task that already succeeded is
 * acknowledged without running again. The worker calls {@link #isProcessed} on the handler's pool
 * thread before running a task, and {@link #markProcessed} after a handler returned without using
 * {@link TaskContext#inTransaction} (a separate, best-effort transaction: effects outside the
 * store's database are at-least-once).
 *
 * <p>Implementations must be thread-safe. Provide a bean of this type to replace the default
 * ({@link JdbcIdempotencyStore} when a {@code DataSource} bean exists, else {@link #NONE}).
 */
public interface IdempotencyStore {

  /** A store that remembers nothing: every delivery runs. */
  IdempotencyStore NONE =
      new IdempotencyStore() {
        @Override
        public boolean isProcessed(String taskId) {
          return false;
        }

        @Override
        public void markProcessed(String taskId, String handler) {}
      };

  /** True if {@code taskId} was processed (its mark committed). */
  boolean isProcessed(String taskId);

  /** Records {@code taskId} as processed in its own transaction; a repeat is not an error. */
  void markProcessed(String taskId, String handler);
}
