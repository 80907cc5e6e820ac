package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.TaskState;

/**
 * {@code POST /api/tasks/{id}/cancel}, {@code /retry-dead}, {@code /discard} and {@code /trigger}:
 * the command's outcome (schema {@code ActionResult} in {@code openapi.yml}). {@code applied} or
 * {@code ignored} (HTTP 200) carries the reason and the task's state; {@code pending} (HTTP 202,
 * the wait passed before the change showed) carries neither.
 *
 * @param id the task
 * @param action the command: {@code cancel}, {@code retry-dead}, {@code discard} or {@code trigger}
 * @param outcome {@code applied}, {@code ignored} or {@code pending}
 * @param settled the reason and the state, written in line; absent while pending
 */
public record TaskActionResponse(
    String id, String action, String outcome, @JsonUnwrapped Settled settled) {

  static final String APPLIED = "applied";
  static final String IGNORED = "ignored";
  static final String PENDING = "pending";

  /**
   * The answer {@code outcome} ({@link #APPLIED} or {@link #IGNORED}) for {@code reason}, with the
   * state of {@code task} (a task status answer's JSON; null once the task is gone).
   */
  static TaskActionResponse of(
      String id, TaskAction action, String outcome, String reason, JsonNode task) {
    return new TaskActionResponse(
        id, action.path, outcome, new Settled(reason, TaskAction.stateOf(task)));
  }

  /** The answer when the wait passed without the change showing. */
  static TaskActionResponse pending(String id, TaskAction action) {
    return new TaskActionResponse(id, action.path, PENDING, null);
  }

  /** The HTTP status of this answer: 202 while pending, else 200. */
  int httpStatus() {
    return PENDING.equals(outcome) ? 202 : 200;
  }

  /**
   * What an applied or ignored command tells besides its outcome.
   *
   * @param reason why it was ignored (e.g. {@code already SUCCEEDED}), null when applied
   * @param state the task's state after it, null once the task is gone
   */
  public record Settled(String reason, TaskState state) {}
}
