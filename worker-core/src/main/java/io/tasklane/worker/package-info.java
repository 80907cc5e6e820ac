/**
 * The worker runtime's API: annotate beans with {@link io.tasklane.worker.TaskHandler}, implement
 * {@link io.tasklane.worker.Handler}, use {@link io.tasklane.worker.TaskContext}; outcomes by
 * exception type ({@link io.tasklane.worker.RetryableTaskException}, {@link
 * io.tasklane.worker.PermanentTaskException}); idempotency through {@link
 * io.tasklane.worker.IdempotencyStore} and {@link io.tasklane.worker.JdbcIdempotencyStore}.
 */
package io.tasklane.worker;
