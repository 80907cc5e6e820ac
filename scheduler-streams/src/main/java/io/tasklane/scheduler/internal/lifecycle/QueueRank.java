package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskOptions;

/**
 * A queued task's place in its handler's queue, with its priority and aging folded in: the queue
 * ({@link FlowControlQueues}) is released in the order of its entries' times ({@link
 * TaskIndexKey}), and a task of priority {@code p} enters it at {@code now − (p − 5) × aging / 9}.
 * So a task is passed only by higher-priority tasks queued at most {@code (p' − p) × aging / 9}
 * after it: one of priority 0 waits at most {@code aging} (default 5 min) longer than in arrival
 * order however many tasks of priority 9 come (aging), and among tasks of one priority the order
 * stays arrival order. A task of the default priority enters at its queue time, as it did before
 * priorities.
 *
 * <p>The rank is kept in the QUEUED record's {@code timerAt} (a queued task has no timer to fire;
 * its due time is {@code dueAt}). A QUEUED record whose {@code timerAt} equals its {@code dueAt}
 * (every record queued at the default priority, and those queued before priorities) is in the queue
 * at its {@code updatedAt}; a ranked one never has {@code timerAt == dueAt}. Stateless.
 */
final class QueueRank {
  private QueueRank() {}

  /**
   * The {@code timerAt} of a task of {@code priority} queued at {@code now}: {@code dueAt} at the
   * default priority, else its rank (never equal to {@code dueAt}).
   */
  static long timerAt(long now, long dueAt, int priority, long agingMs) {
    int steps = priority - TaskOptions.DEFAULT_PRIORITY;
    if (steps == 0) {
      return dueAt;
    }
    long rank = now - steps * agingMs / (TaskOptions.MAX_PRIORITY - TaskOptions.MIN_PRIORITY);
    return rank == dueAt ? rank - 1 : rank;
  }

  /** The time of {@code r}'s entry in the search index: its queue rank when ranked. */
  static long indexedAt(TaskRecord r) {
    return r.timerKind() == TimerKind.QUEUED
        ? queuedAt(r.timerAt(), r.dueAt(), r.updatedAt())
        : r.updatedAt();
  }

  /** The time of a QUEUED record's entry, from its {@code timerAt}, {@code dueAt} and update. */
  static long queuedAt(long timerAt, long dueAt, long updatedAt) {
    return timerAt != dueAt ? timerAt : updatedAt;
  }
}
