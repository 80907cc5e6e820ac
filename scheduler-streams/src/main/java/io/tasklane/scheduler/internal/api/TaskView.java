package io.tasklane.scheduler.internal.api;

import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;
import java.util.Set;

/**
 * The status API's JSON of one task ({@link TaskResponse}): its fields with an ISO-8601 UTC twin
 * next to every time, e.g. {@code "dueAt":1767225600000, "dueAtIso":"2026-01-01T00:00:00Z"}. Times
 * of 0 or less (not set) get no twin. The current dispatch's nonce is never shown: it is what lets
 * a result settle the attempt.
 */
public final class TaskView {
  /** The fields holding epoch millis. */
  static final Set<String> TIME_FIELDS =
      Set.of(
          "dueAt",
          "deadline",
          "timerAt",
          "updatedAt",
          "finishedAt",
          "createdAt",
          "refusedAt",
          "waitTimedOutAt",
          "dispatchedAt",
          "endedAt");

  private TaskView() {}

  /** The JSON of {@code GET /api/tasks/{id}} for {@code record} ({@link TaskResponse}). */
  public static String json(TaskRecord record) {
    return WireCodec.encodeToString(TaskResponse.of(record));
  }
}
