package io.tasklane.outbox;

import io.tasklane.core.ScheduleDefinition;
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
   * downstream). For a request with a {@linkplain TaskRequest#unique unique window} still held by
   * an earlier task of the same handler and key, writes nothing and returns that task's id; {@link
   * #enqueueWithResult} also says which happened.
   */
  String enqueue(TaskRequest request);

  /**
   * Records one task as {@link #enqueue} does and says what happened: {@link
   * EnqueueResult#duplicate()} is true when the request's unique window was held by an earlier task
   * of the same handler and key, whose id {@link EnqueueResult#taskId()} then is, and nothing was
   * written. The window is claimed in {@code tasklane_unique} in the caller's transaction: a
   * concurrent transaction enqueuing the same key waits for this one to end, then finds this task
   * (commit) or claims the window itself (rollback).
   */
  EnqueueResult enqueueWithResult(TaskRequest request);

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
   * validated first: if one is invalid, none is written. With {@code tasklane.outbox.batch-rows} N
   * above 1, runs of up to N tasks are written as one {@code BATCH} row each (at most 4 MiB), which
   * the relay publishes as one record per task, in order. A request refused by its unique window
   * gets the id of the task holding the window, and no row.
   */
  List<String> enqueueAll(List<TaskRequest> requests);

  /**
   * The batch {@code batchId} (1-128 characters of {@code [A-Za-z0-9._:-]}): add members with
   * {@link TaskBatch#enqueueAll} in this or later transactions, then {@link TaskBatch#seal} it with
   * its callbacks.
   *
   * @throws io.tasklane.core.InvalidTaskException naming {@code batch} when the id is not one
   */
  TaskBatch batch(String batchId);

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

  /**
   * Defines (or replaces) recurring schedule {@code request.name} in the caller's transaction: one
   * {@code SCHEDULE} row, which the relay publishes as the schedule's definition on {@code
   * <ns>.tasks} keyed by its name once the transaction commits (nothing if it rolls back). Without
   * a version of its own the definition gets the request's time in epoch millis, so a later {@code
   * schedule} of the same name replaces an earlier one (the scheduler applies a definition only
   * when its version is higher than the stored one's).
   *
   * @return the definition as written, with its version
   * @throws io.tasklane.core.InvalidTaskException naming the field and the limit ({@code
   *     ScheduleValidator}); nothing is written
   */
  ScheduleDefinition schedule(ScheduleRequest request);

  /**
   * Defines (or replaces) {@code definition}'s schedule in the caller's transaction, as {@link
   * #schedule(ScheduleRequest)} does. Its version is used as given, except version 0 (the builder's
   * default), which is replaced by the request's time in epoch millis; give versions ≥ 1 to order
   * definitions yourself.
   *
   * @return the definition as written, with its version
   */
  ScheduleDefinition schedule(ScheduleDefinition definition);

  /**
   * Deletes schedule {@code name} in the caller's transaction: one {@code UNSCHEDULE} row with the
   * request's time in epoch millis as its version, so it supersedes every definition written before
   * it with a default version. Returns that version; a later definition needs a higher one.
   */
  long unschedule(String name);

  /**
   * Deletes schedule {@code name} when {@code version} is at least the stored definition's; the
   * name then remembers {@code version}, so only a higher version defines it again.
   */
  long unschedule(String name, long version);

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
