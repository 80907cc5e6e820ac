package io.tasklane.scheduler.internal.api;

import io.tasklane.core.TaskState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/tasks/counts}: the tasks per handler and state, summed over every instance's
 * state-count stores, by handler name and then state; a (handler, state) without tasks is left out.
 *
 * @param asOf when the counts were read, epoch millis
 * @param asOfIso the same in ISO-8601 UTC
 * @param counts the non-zero counts
 */
public record TaskCountsResponse(long asOf, String asOfIso, List<Count> counts) {

  /**
   * The answer at {@code now} of {@code sum} (tasks by handler, then state, in the order to show),
   * of {@code handler} only when not null.
   */
  static TaskCountsResponse of(long now, Map<String, Map<TaskState, Long>> sum, String handler) {
    List<Count> counts = new ArrayList<>();
    sum.forEach(
        (h, byState) -> {
          if (handler == null || handler.equals(h)) {
            byState.forEach((s, n) -> counts.add(new Count(h, s, n, false)));
          }
        });
    return new TaskCountsResponse(now, Instant.ofEpochMilli(now).toString(), counts);
  }

  /**
   * The tasks of one handler in one state.
   *
   * @param handler the handler
   * @param state the state
   * @param count how many tasks
   * @param estimated whether the count is an estimate: always false, the counts are exact
   */
  public record Count(String handler, TaskState state, long count, boolean estimated) {}
}
