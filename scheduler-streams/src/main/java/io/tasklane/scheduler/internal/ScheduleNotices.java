package io.tasklane.scheduler.internal;

import io.tasklane.core.ScheduleFireDone;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskState;
import java.util.Map;

/**
 * Tells a schedule that a task of one of its fires reached a terminal state. The task lives on the
 * partition of its routing key, the schedule on the partition of its name, usually another one, so
 * the notice is a {@link ScheduleFireDone} record on {@code <ns>.tasks} keyed by the schedule's
 * name (never a read of another partition's store); it goes out with the terminal state's commit.
 * Tasks made before fires carried {@code tasklane.fire-id} are calendar fires: their fire id is
 * derived from {@code tasklane.fire-time}. The notice carries the fire's instant too, so that the
 * schedule finds a fire kept in its {@link FireLog} with one read. Called on the stream thread of
 * the task's partition.
 */
final class ScheduleNotices {
  private ScheduleNotices() {}

  static void finished(
      TaskEnvelope task, String id, TaskState state, String reason, long now, Outputs out) {
    if (task == null || task.headers() == null) {
      return;
    }
    Map<String, String> h = task.headers();
    String name = h.get(ScheduleMachine.HEADER_SCHEDULE);
    if (name == null || !ScheduleValidator.NAME.matcher(name).matches()) {
      return;
    }
    Long fireAt = fireAt(h);
    String fireId = fireId(name, h, fireAt);
    if (fireId == null) {
      return;
    }
    out.scheduleRecord(
        name, ScheduleFireDone.of(name, fireId, fireAt, id, state, reason, now), now);
  }

  /** The fire's instant from {@code tasklane.fire-time}, or null when absent or unreadable. */
  private static Long fireAt(Map<String, String> h) {
    try {
      String at = h.get(ScheduleMachine.HEADER_FIRE_TIME);
      return at == null ? null : Long.valueOf(at);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String fireId(String name, Map<String, String> h, Long fireAt) {
    String fireId = h.get(ScheduleMachine.HEADER_FIRE_ID);
    if (fireId != null) {
      return TaskIds.isValid(fireId) ? fireId : null;
    }
    return fireAt == null ? null : TaskIds.forScheduleFire(name, fireAt, -1);
  }
}
