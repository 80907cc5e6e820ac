package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;

/**
 * One task of a listing ({@code GET /api/tasks}, answered as {@link TaskListingResponse.Row}): its
 * id, handler, idempotency key, state, routing key, times (epoch millis), attempt and last error
 * type; read back from another instance's page with {@link #fromJson}. Rows a bulk job enumerates
 * ({@link TaskQuery#idsOnly}) come from the index entry alone: no key, due time, attempt or error
 * type. Immutable.
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

  static TaskRow fromJson(JsonNode n) {
    return new TaskRow(
        n.path("id").asText(),
        n.path("handler").asText(),
        n.path("key").isTextual() ? n.path("key").asText() : null,
        TaskState.valueOf(n.path("state").asText()),
        n.path("routingKey").asText(),
        n.path("createdAt").asLong(),
        n.path("updatedAt").asLong(),
        n.path("dueAt").asLong(),
        n.path("attempt").asInt(),
        n.path("errorType").isTextual() ? n.path("errorType").asText() : null);
  }
}
