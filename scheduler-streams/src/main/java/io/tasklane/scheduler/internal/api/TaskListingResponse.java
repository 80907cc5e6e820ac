package io.tasklane.scheduler.internal.api;

import io.tasklane.core.TaskState;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/tasks} (a search): one page of the matching tasks in the listing's sort order
 * (schema {@code TaskListing} in {@code openapi.yml}). Every time is epoch millis with an ISO-8601
 * UTC twin, null when the time is not set (0 or less).
 *
 * @param asOf the listing's instant: tasks created after it are left out; send it back with the
 *     cursor
 * @param asOfIso the same in ISO-8601 UTC
 * @param tasks the page's tasks
 * @param nextCursor where the next page starts, null when the listing is complete
 * @param partial whether an instance stopped at its scan bound before the page filled (follow
 *     {@code nextCursor} for the rest)
 * @param scanned the index entries read, every instance
 */
public record TaskListingResponse(
    long asOf, String asOfIso, List<Row> tasks, String nextCursor, boolean partial, long scanned) {

  /** The answer of the merged page {@code r}, its cursor made for {@code sort}. */
  static TaskListingResponse of(TaskSearch.Result r, TaskQuery.Sort sort) {
    return new TaskListingResponse(
        r.asOf(),
        Instant.ofEpochMilli(r.asOf()).toString(),
        r.rows().stream().map(Row::of).toList(),
        r.next() == null ? null : r.next().encode(sort),
        r.partial(),
        r.scanned());
  }

  /**
   * One task of the page. A row of a bulk job's listing ({@code fields=ids}) has no key, due time,
   * attempt or error type.
   *
   * @param id the task id
   * @param handler its handler
   * @param key its idempotency key, null when none
   * @param state its state
   * @param routingKey its routing key (its ordering key, else its id)
   * @param createdAt when it was created
   * @param createdAtIso the same in ISO-8601 UTC
   * @param updatedAt its last change
   * @param updatedAtIso the same in ISO-8601 UTC
   * @param dueAt when it is due next
   * @param dueAtIso the same in ISO-8601 UTC
   * @param attempt the dispatch number of its current or last attempt
   * @param errorType the type of its last error, null when none
   */
  public record Row(
      String id,
      String handler,
      String key,
      TaskState state,
      String routingKey,
      long createdAt,
      String createdAtIso,
      long updatedAt,
      String updatedAtIso,
      long dueAt,
      String dueAtIso,
      int attempt,
      String errorType) {
    /** The row as the listing merges it (another instance's page read back). */
    TaskRow row() {
      return new TaskRow(
          id, handler, key, state, routingKey, createdAt, updatedAt, dueAt, attempt, errorType);
    }

    static Row of(TaskRow r) {
      return new Row(
          r.id(),
          r.handler(),
          r.key(),
          r.state(),
          r.routingKey(),
          r.createdAt(),
          TaskResponse.iso(r.createdAt()),
          r.updatedAt(),
          TaskResponse.iso(r.updatedAt()),
          r.dueAt(),
          TaskResponse.iso(r.dueAt()),
          r.attempt(),
          r.errorType());
    }
  }
}
