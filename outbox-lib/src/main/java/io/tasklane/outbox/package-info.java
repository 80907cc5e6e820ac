/**
 * Tasklane's outbox: enqueue and cancel tasks inside the application's own database transaction.
 *
 * <p>{@link io.tasklane.outbox.TaskOutbox} (JPA) and {@link io.tasklane.outbox.JdbcTaskOutbox}
 * (plain JDBC) write rows of the insert-only table {@code tasklane_outbox} ({@link
 * io.tasklane.outbox.OutboxSchema}, {@link io.tasklane.outbox.OutboxEntry}); the relay publishes
 * them after commit. A rollback makes the task vanish. {@link io.tasklane.outbox.OutboxAsync} turns
 * a Micronaut bean method into a task recorded in the caller's transaction.
 *
 * <p>Only this package is API; {@code io.tasklane.outbox.internal} holds the Micronaut wiring.
 */
package io.tasklane.outbox;
