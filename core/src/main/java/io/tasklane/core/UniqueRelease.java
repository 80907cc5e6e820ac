package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The end of a task whose unique window ends with it ({@link UniqueUntil}), sent by the scheduler
 * to {@code <ns>.unique-releases} keyed by the task id, in the commit that stores the task's end.
 * The relay deletes the window's row of {@code tasklane_unique} when it still belongs to this task
 * ({@code key_id = TaskIds.forKey(handler, key)} and {@code task_id = taskId}), so a window that a
 * later task took is never touched. Sent at least once; applying it twice changes nothing.
 *
 * @param v wire version
 * @param taskId the task that ended
 * @param handler its handler
 * @param key its key (the unique window's key)
 * @param state the state it reached
 * @param at epoch millis when the scheduler stored the end
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UniqueRelease(
    @JsonProperty(required = true) int v,
    String taskId,
    String handler,
    String key,
    TaskState state,
    long at)
    implements Versioned {

  public static UniqueRelease of(
      String taskId, String handler, String key, TaskState state, long at) {
    return new UniqueRelease(Wire.VERSION, taskId, handler, key, state, at);
  }

  /** The primary key of the window's row: {@link TaskIds#forKey}{@code (handler, key)}. */
  public String keyId() {
    return TaskIds.forKey(handler, key);
  }
}
