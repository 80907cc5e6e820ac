package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.ScheduleFireDone;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.lifecycle.Outputs;
import io.tasklane.scheduler.internal.lifecycle.Transitions;
import java.util.Map;

/**
 * Tells a schedule that a task of one of its fires reached a terminal state. The task lives on the
 * partition of its routing key, the schedule on the partition of its name. An unsharded fire's task
 * is placed in its schedule's partition ({@link FireRunner}), so its notice is applied there at
 * once ({@link #localFirst}); a shard task's schedule usually lives on another partition, so its
 * notice is a {@link ScheduleFireDone} record on {@code <ns>.tasks} keyed by the schedule's name
 * (never a read of another partition's store). Either goes out with the terminal state's commit.
 * Tasks made before fires carried {@code tasklane.fire-id} are calendar fires: their fire id is
 * derived from {@code tasklane.fire-time}. The notice carries the fire's instant too, so that the
 * schedule finds a fire kept in its {@link FireLog} with one read. Called on the stream thread of
 * the task's partition.
 */
public final class ScheduleNotices {
  private ScheduleNotices() {}

  /** Where a notice goes: applied to the schedule, or sent to it. Stream thread. */
  @FunctionalInterface
  interface Sink {
    void send(ScheduleFireDone notice, long now);
  }

  /** Every notice through {@code <ns>.tasks}, keyed by the schedule's name. */
  static Sink topic(Outputs out) {
    return (notice, now) -> out.scheduleRecord(notice.name(), notice, now);
  }

  /**
   * A notice whose schedule lives in partition {@code partition} (of the tasks topic's {@code
   * partitions}) applied to it at once with {@code schedules}, the others through {@code
   * <ns>.tasks} with {@code out}.
   */
  static Sink localFirst(int partition, int partitions, ScheduleMachine schedules, Outputs out) {
    Sink topic = topic(out);
    if (partitions <= 0) {
      return topic;
    }
    return (notice, now) -> {
      if (TaskIds.partitionOf(notice.name(), partitions) == partition) {
        schedules.fireDone(notice, now);
      } else {
        topic.send(notice, now);
      }
    };
  }

  /**
   * The schedules' listener of finished tasks in stream task {@code partition}: a notice it may
   * apply here goes {@link #localFirst}, any other through {@code <ns>.tasks}.
   */
  public static Transitions.FinishListener listener(
      int partition, int partitions, ScheduleMachine schedules, Outputs out) {
    Sink local = localFirst(partition, partitions, schedules, out);
    Sink topic = topic(out);
    return (task, id, state, reason, now, here) ->
        finished(task, id, state, reason, now, here ? local : topic);
  }

  /**
   * The notice of a fire's task {@code id} that reached {@code state}, when it is one, to {@code
   * sink}.
   */
  static void finished(
      TaskEnvelope task, String id, TaskState state, String reason, long now, Sink sink) {
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
    sink.send(ScheduleFireDone.of(name, fireId, fireAt, id, state, reason, now), now);
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
