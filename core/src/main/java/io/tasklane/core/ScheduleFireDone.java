package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A task made by a fire of recurring schedule {@code name} reached a terminal state. Written by the
 * scheduler partition that owns the task to {@code <ns>.tasks}, keyed by {@code name}, {@code type}
 * {@code schedule-fire-done}, so it reaches the partition that owns the schedule (a task and its
 * schedule usually live on different partitions). The schedule uses it for its overlap policy, its
 * fire history and its children. Immutable and thread-safe.
 *
 * @param v wire version
 * @param name the schedule
 * @param fireId the fire's id (the {@code tasklane.fire-id} header of its tasks)
 * @param taskId the task that finished
 * @param state its terminal state: {@code SUCCEEDED}, {@code DEAD} or {@code CANCELLED}
 * @param reason why it is DEAD or CANCELLED, or null
 * @param finishedAt epoch millis
 * @param fireAt the fire's instant (the {@code tasklane.fire-time} header of its tasks), which
 *     finds the fire in the schedule's fire log with one read; null in a notice written before the
 *     field existed (the schedule then looks through its newest fires)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ScheduleFireDone(
    @JsonProperty(required = true) int v,
    String name,
    String fireId,
    String taskId,
    TaskState state,
    String reason,
    long finishedAt,
    Long fireAt)
    implements TaskTopicRecord {

  /** A notice without the fire's instant (as written before {@code fireAt} existed). */
  public static ScheduleFireDone of(
      String name, String fireId, String taskId, TaskState state, String reason, long finishedAt) {
    return of(name, fireId, null, taskId, state, reason, finishedAt);
  }

  /** A notice naming the fire by id and instant. */
  public static ScheduleFireDone of(
      String name,
      String fireId,
      Long fireAt,
      String taskId,
      TaskState state,
      String reason,
      long finishedAt) {
    return new ScheduleFireDone(
        Wire.VERSION, name, fireId, taskId, state, reason, finishedAt, fireAt);
  }
}
