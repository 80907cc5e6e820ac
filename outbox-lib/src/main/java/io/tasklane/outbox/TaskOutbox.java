package io.tasklane.outbox;

import io.tasklane.core.TaskKey;
import io.tasklane.core.TaskType;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.function.Supplier;

/**
 * Enqueues and cancels tasks in the caller's database transaction: each call inserts rows into
 * {@code tasklane_outbox} through the transaction's connection, so the task becomes durable when
 * the transaction commits and vanishes if it rolls back. The relay publishes committed rows.
 *
 * <p><b>Threads and transactions.</b> Call it on the thread that runs the transaction, inside the
 * transaction (a JPA {@code EntityManager} joined to one, a JDBC connection with auto-commit off,
 * or Micronaut's {@code @Transactional}); otherwise it throws {@link NoActiveTransactionException}
 * and writes nothing. Implementations are thread-safe and hold no per-call state; one instance
 * serves the whole application.
 *
 * <p><b>Validation.</b> Every request is checked before anything is written; a bad one throws
 * {@link io.tasklane.core.InvalidTaskException} naming the field and the limit.
 *
 * <pre>{@code
 * TaskOutbox outbox = TaskOutbox.jpa(entityManager);
 * String id = outbox.enqueue(TaskRequest.to("order.cancel").payload(order.id())
 *     .delay(Duration.ofMinutes(30)).key("order-" + order.id()));
 * ...
 * outbox.cancel(TaskKey.of("order.cancel", "order-" + order.id())); // the order was paid
 * }</pre>
 *
 * @see JdbcTaskOutbox the same over plain JDBC
 */
public interface TaskOutbox {

  /**
   * Records one task; returns its id (a UUIDv7, or the id derived from the request's key, so
   * enqueuing the same {@code (handler, key)} twice yields the same id and the duplicate is dropped
   * downstream).
   */
  String enqueue(TaskRequest request);

  /**
   * Records one task of {@code type} with {@code payload} and the type's defaults; returns its id.
   * The same as {@code enqueue(TaskRequest.of(type, payload))}, which also takes a delay, a key and
   * overrides.
   */
  default <P> String enqueue(TaskType<P> type, P payload) {
    return enqueue(TaskRequest.of(type, payload));
  }

  /**
   * Records many tasks with one batched insert; returns their ids in order. All requests are
   * validated first: if one is invalid, none is written.
   */
  List<String> enqueueAll(List<TaskRequest> requests);

  /** Records a cancel of task {@code taskId}; returns the id. */
  String cancel(String taskId);

  /** Records a cancel of task {@code taskId} with a reason shown in the console. */
  String cancel(String taskId, CancelReason reason);

  /**
   * Records a cancel of the task enqueued with {@code task}'s handler and idempotency key; returns
   * that task's id. (A typed argument, so a {@code (handler, key)} pair is never mistaken for an
   * {@code (id, reason)} pair.)
   */
  String cancel(TaskKey task);

  /** A builder to choose the codec, clock, limits and transaction source. */
  static TaskOutboxBuilder builder() {
    return new TaskOutboxBuilder();
  }

  /**
   * An outbox writing through {@code entityManager} (a container-managed, shared proxy is fine).
   */
  static TaskOutbox jpa(EntityManager entityManager) {
    return builder().jpa(entityManager);
  }

  /** An outbox writing through the entity manager {@code supplier} returns for each call. */
  static TaskOutbox jpa(Supplier<? extends EntityManager> supplier) {
    return builder().jpa(supplier);
  }

  /** The reason of a cancel, free text of at most 1000 characters. */
  record CancelReason(String text) {
    public static CancelReason of(String text) {
      return new CancelReason(text);
    }
  }
}
