package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;

/**
 * The wait-timeout timers ({@link TimerKind#WAIT}): a task with a wait timeout ({@link
 * io.tasklane.core.TaskOptions#waitTimeoutMs()}) that has not had its first attempt dispatched has
 * an entry in the {@link DueIndex} at its due time plus the timeout, under the id {@link #PREFIX} +
 * task id, beside its own timer. "Started" is the scheduler's first dispatch of the task (attempt
 * 1): the scheduler hears of a worker only through results, so a task dispatched but still in its
 * handler topic counts as started (the handler's lag shows those). {@link TaskStore} moves the
 * entry with every write (a trigger or snooze that changes the due time re-arms it); {@link
 * DuePunctuator} fires it. Stateless.
 */
final class WaitTimers {
  /** Before the task id in a wait entry's id: task ids never contain ':'. */
  static final String PREFIX = "wait:";

  private WaitTimers() {}

  /**
   * When the wait timeout of {@code r} passes, or -1 when it has none, its first attempt was
   * dispatched, it finished, or the timeout already passed once.
   */
  static long at(TaskRecord r) {
    if (r == null
        || r.task() == null
        || r.state() == null
        || r.attempt() > 0
        || r.waitTimedOutAt() > 0
        || r.state() == TaskState.DISPATCHED
        || r.state().isTerminal()) {
      return -1;
    }
    long ms = r.task().options().waitTimeoutMsOrNone();
    if (ms <= 0) {
      return -1;
    }
    long due = Math.max(0, r.dueAt());
    return ms > Long.MAX_VALUE - due ? -1 : due + ms;
  }

  /**
   * Moves task {@code id}'s wait entry in {@code index} from where {@code previous} had it to where
   * {@code next} (null: forgotten) has it, when they differ.
   */
  static void move(DueIndex index, String id, TaskRecord previous, TaskRecord next) {
    long was = at(previous);
    long at = next == null ? -1 : at(next);
    if (was == at) {
      return;
    }
    if (was >= 0) {
      index.remove(DueIndexKey.of(was, timerId(id)));
    }
    if (at >= 0) {
      index.put(at, timerId(id), TimerKind.WAIT);
    }
  }

  static String timerId(String taskId) {
    return PREFIX + taskId;
  }

  static String taskIdOf(String timerId) {
    return timerId.substring(PREFIX.length());
  }
}
