package io.tasklane.scheduler.internal.schedules;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tasklane.core.TaskState;
import java.util.ArrayList;
import java.util.List;

/**
 * One fire of a schedule as its history keeps it (unfinished in {@link ScheduleState#fires()},
 * finished in the {@link FireLog}): what made it, its tasks and their terminal states, and its
 * outcome. Immutable; changes are withers.
 *
 * @param fireId the fire's id (calendar: {@code TaskIds.forScheduleFire(name, fireAt, -1)})
 * @param fireAt the instant the fire is for (a calendar instant, or a trigger's request time)
 * @param kind {@link Kind}
 * @param depth how many parent fires lead to this one (0 unless {@code CHILD})
 * @param parentFire the parent fire's id for a {@code CHILD} fire, else null
 * @param madeAt when its tasks were made, or 0 when none were (yet)
 * @param latenessMs {@code madeAt - fireAt} when tasks were made, else 0
 * @param tasks the fire's tasks (one per shard)
 * @param outcome {@link Outcome}
 * @param reason why it was skipped, misfired, is waiting, or how it failed; or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FireRecord(
    String fireId,
    long fireAt,
    Kind kind,
    int depth,
    String parentFire,
    long madeAt,
    long latenessMs,
    List<FireTask> tasks,
    Outcome outcome,
    String reason) {

  /** What made a fire. */
  public enum Kind {
    CALENDAR,
    TRIGGER,
    CHILD
  }

  /** Where a fire stands. */
  public enum Outcome {
    /** Its tasks are made and not all terminal. */
    RUNNING,
    /** Waiting for the running fire to finish ({@code overlap: QUEUE}). */
    QUEUED,
    /** Every task SUCCEEDED. */
    SUCCEEDED,
    /** Some tasks SUCCEEDED, the others DEAD or CANCELLED (a sharded fire). */
    FAILED,
    /** Every task DEAD (or DEAD and CANCELLED). */
    DEAD,
    /** Every task CANCELLED. */
    CANCELLED,
    /** No task was made: the overlap policy, a full queue or a paused schedule. */
    SKIPPED,
    /** No task was made: the misfire policy dropped a late fire. */
    MISFIRED;

    boolean finished() {
      return this != RUNNING && this != QUEUED;
    }
  }

  /**
   * One task of a fire.
   *
   * @param id the task id
   * @param routingKey its routing key (the key of commands about it)
   * @param state its terminal state, or null while it runs
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record FireTask(String id, String routingKey, TaskState state) {}

  public FireRecord {
    tasks = tasks == null ? List.of() : List.copyOf(tasks);
  }

  /** A fire that made no task, finished with {@code outcome}. */
  static FireRecord noTask(
      String fireId,
      long fireAt,
      Kind kind,
      int depth,
      String parentFire,
      Outcome outcome,
      String reason) {
    return new FireRecord(
        fireId, fireAt, kind, depth, parentFire, 0, 0, List.of(), outcome, reason);
  }

  FireRecord queued(String why) {
    return new FireRecord(
        fireId, fireAt, kind, depth, parentFire, 0, 0, List.of(), Outcome.QUEUED, why);
  }

  FireRecord skipped(String why) {
    return new FireRecord(
        fireId, fireAt, kind, depth, parentFire, 0, 0, List.of(), Outcome.SKIPPED, why);
  }

  /** Running with {@code made} tasks made at {@code now}. */
  FireRecord running(List<FireTask> made, long now) {
    return new FireRecord(
        fireId,
        fireAt,
        kind,
        depth,
        parentFire,
        now,
        Math.max(0, now - fireAt),
        made,
        Outcome.RUNNING,
        reason);
  }

  FireRecord withReason(String why) {
    return new FireRecord(
        fireId, fireAt, kind, depth, parentFire, madeAt, latenessMs, tasks, outcome, why);
  }

  /**
   * Task {@code taskId} reached {@code state}: the fire's outcome once every task is terminal.
   * Returns this unchanged when the task is not one of the fire's.
   */
  FireRecord taskDone(String taskId, TaskState state, String why) {
    List<FireTask> next = new ArrayList<>(tasks.size());
    boolean found = false;
    for (FireTask t : tasks) {
      if (t.id().equals(taskId)) {
        next.add(new FireTask(t.id(), t.routingKey(), state));
        found = true;
      } else {
        next.add(t);
      }
    }
    if (!found) {
      return this;
    }
    Outcome o = outcomeOf(next);
    String r = o == Outcome.SUCCEEDED ? null : (why != null ? why : reason);
    return new FireRecord(fireId, fireAt, kind, depth, parentFire, madeAt, latenessMs, next, o, r);
  }

  private static Outcome outcomeOf(List<FireTask> tasks) {
    int succeeded = 0;
    int dead = 0;
    int cancelled = 0;
    for (FireTask t : tasks) {
      if (t.state() == null) {
        return Outcome.RUNNING;
      }
      switch (t.state()) {
        case SUCCEEDED -> succeeded++;
        case CANCELLED -> cancelled++;
        default -> dead++;
      }
    }
    if (succeeded == tasks.size()) {
      return Outcome.SUCCEEDED;
    }
    if (succeeded > 0) {
      return Outcome.FAILED;
    }
    return dead > 0 ? Outcome.DEAD : Outcome.CANCELLED;
  }
}
