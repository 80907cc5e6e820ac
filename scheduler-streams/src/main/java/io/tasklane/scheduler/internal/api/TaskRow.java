package io.tasklane.scheduler.internal.api;

import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;

/**
 * One task of a listing ({@code GET /api/tasks}, answered as {@link TaskListingResponse.Row}): its
 * id, handler, idempotency key, state, routing key, times (epoch millis), attempt and last error
 * type; read back from another instance's page with {@link TaskListingResponse.Row#row}. Rows a
 * bulk job enumerates ({@link TaskQuery#idsOnly}) come from the index entry alone: no key, due
 * time, attempt or error type. Immutable.
 */
public record TaskRow(
    String id,
    String handler,
    String key,
    TaskState state,
    String routingKey,
    long createdAt,
    long updatedAt,
    long dueAt,
    int attempt,
    String errorType) {

  static TaskRow of(String id, TaskRecord r) {
    return new TaskRow(
        id,
        r.task().handler(),
        r.task().key(),
        r.state(),
        r.task().routingKey(),
        r.task().createdAt(),
        r.updatedAt(),
        r.dueAt(),
        r.attempt(),
        r.lastError() == null ? null : r.lastError().type());
  }

  /** A row from an index entry alone. */
  static TaskRow ofEntry(
      String id,
      TaskState state,
      String handler,
      long updatedAt,
      String orderingKey,
      long created) {
    return new TaskRow(
        id,
        handler,
        null,
        state,
        orderingKey == null ? id : orderingKey,
        created,
        updatedAt,
        0,
        0,
        null);
  }

  SearchPosition position(TaskQuery.Sort sort) {
    return new SearchPosition(sort.of(this), id);
  }
}
