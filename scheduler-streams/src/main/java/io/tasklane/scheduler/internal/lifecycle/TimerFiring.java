package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.ErrorInfo;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.StreamsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a timer does when it fires, part of the {@link TaskLifecycle}: DUE hands the task to the
 * {@link Dispatcher}, RATE too (to ask its rate limit again), DEADLINE fails the attempt as a
 * timeout, PURGE forgets a placeholder, WAIT notes a passed wait timeout, SCHEDULE goes to the
 * {@link ScheduleTimers}. An entry that no longer matches its task's record is stale and only
 * removed; one whose firing throws is removed and its task goes DEAD ({@link #poisoned}), so one
 * bad timer never stalls the others. Used on the stream task's thread only (punctuation).
 */
public final class TimerFiring {
  private static final Logger LOG = LoggerFactory.getLogger(TimerFiring.class);

  /** Where the timers of schedules fire, and are repaired (the schedules of the stream task). */
  public interface ScheduleTimers {
    /** The timer {@code timerId}, armed for {@code at}, of a schedule fired. */
    void fire(String timerId, long at, long now);

    /**
     * Writes back the schedules' timer entries a crash lost, a slice of at most {@code slice}
     * schedules and {@code budgetNanos}, until all are read.
     */
    void repairNextSlice(int slice, long budgetNanos);

    /** No schedules: their timers are stale. */
    ScheduleTimers NONE =
        new ScheduleTimers() {
          @Override
          public void fire(String timerId, long at, long now) {}

          @Override
          public void repairNextSlice(int slice, long budgetNanos) {}
        };
  }

  private final TaskLifecycle owner;
  private final TaskStore store;
  private final Engine engine;
  ScheduleTimers schedules = ScheduleTimers.NONE;

  TimerFiring(TaskLifecycle owner, TaskStore store) {
    this.owner = owner;
    this.store = store;
    this.engine = owner.engine;
  }

  /** Where schedule timers go from now on (set once, when the schedules open). */
  void onScheduleTimers(ScheduleTimers schedules) {
    this.schedules = schedules;
  }

  /** Fires {@code entry}; one whose firing throws is {@link #poisoned}. */
  void fire(DueIndex.Entry entry, long now) {
    try {
      fireOne(entry, now);
    } catch (StreamsException e) {
      throw e;
    } catch (RuntimeException e) {
      poisoned(entry.taskId(), entry.key(), now, e);
    }
  }

  /**
   * A timer (or queue entry) whose firing threw: its index entry is removed so that it cannot fire
   * again tick after tick (and hold up the entries behind it), the task's record is written to the
   * scheduler DLT (reason {@code timer-failed}), and the task goes DEAD naming the error (a failed
   * purge deletes the record instead), so no later write-back pass revives the timer. Counted
   * {@code error.timer}. Each step is best effort: a record that cannot even be read is only
   * dead-lettered by its id.
   */
  private void poisoned(String id, Bytes key, long now, RuntimeException error) {
    owner.removeTimerEntry(key);
    poisoned(id, now, error);
  }

  /** As {@link #poisoned(String, Bytes, long, RuntimeException)} for a queue entry. */
  void poisonedQueued(String id, Bytes key, long now, RuntimeException error) {
    owner.removeQueueEntry(key);
    poisoned(id, now, error);
  }

  void poisoned(String id, long now, RuntimeException error) {
    LOG.error("timer of task {} failed; removed, the task goes DEAD", id, error);
    engine.metrics().count(SchedulerEvent.ERROR_TIMER);
    TaskRecord previous = null;
    byte[] raw = null;
    try {
      previous = store.get(id);
      raw = previous == null ? null : WireCodec.encode(previous);
    } catch (RuntimeException e) {
      LOG.error("task {}: its record cannot be read either", id, e);
    }
    String why = "timer failed: " + error;
    owner.out.schedulerDeadLetter(id, raw, "timer-failed", why, error, now);
    engine.metrics().deadLettered("timer", "timer-failed");
    if (previous == null) {
      return;
    }
    try {
      if (previous.timerKind() == TimerKind.PURGE || previous.state() == null) {
        owner.forget(id, previous);
        return;
      }
      TaskRecord.Edit e = previous.edit();
      e.lastError = new ErrorInfo("timer-failed", why, null);
      owner.transitions.finish(e, id, TaskState.DEAD, why, now);
      owner.commit(id, previous, e);
    } catch (RuntimeException e) {
      LOG.error("task {}: could not be set DEAD after its timer failed", id, e);
    }
  }

  /**
   * A finished task whose record cannot be read when its retention passed: its search entry and
   * record go, and its id goes to the scheduler DLT (reason {@code purge-failed}). Counted {@code
   * error.timer}.
   */
  void purgeFailed(String id, Bytes key, long now, RuntimeException error) {
    LOG.error("task {}: its record cannot be read at its purge; forgotten", id, error);
    engine.metrics().count(SchedulerEvent.ERROR_TIMER);
    owner.forgetUnreadable(id, key);
    owner.out.schedulerDeadLetter(id, null, "purge-failed", "purge failed: " + error, error, now);
    engine.metrics().deadLettered("timer", "purge-failed");
  }

  /**
   * Takes the entry out of the index and, when it still matches its task's record, fires it: DUE
   * hands the task to the {@link Dispatcher}, DEADLINE fails the attempt as a timeout, PURGE
   * forgets the task (telling a placeholder's waiters that it never came).
   */
  private void fireOne(DueIndex.Entry entry, long now) {
    if (!entry.inMemory()) {
      owner.removeTimerEntry(entry.key());
    }
    String id = entry.taskId();
    long at = entry.at();
    TimerKind kind = entry.kind();
    if (kind == TimerKind.SCHEDULE) {
      schedules.fire(id, at, now);
      return;
    }
    if (kind == TimerKind.WAIT) {
      waitTimedOut(WaitTimers.taskIdOf(id), at, now);
      return;
    }
    TaskRecord fired = store.get(id);
    if (fired == null || fired.timerAt() != at || fired.timerKind() != kind) {
      engine.metrics().count(SchedulerEvent.TIMER_STALE);
      return;
    }
    TaskRecord.Edit e = fired.edit().noTimer();
    switch (kind) {
      case DUE -> owner.dispatcher.dispatchOrPark(e, now);
      case RATE -> owner.dispatcher.dispatchOrPark(e, now, false, false, at, 0);
      case DEADLINE -> {
        String msg = "no result within timeoutMs " + e.task.timeoutMs() + " ms + grace";
        e.endAttempt(e.attempt, now, "TIMEOUT", msg, null);
        engine.metrics().count(SchedulerEvent.TIMEOUT);
        owner.transitions.fail(e, id, new ErrorInfo("timeout", msg, null), now);
      }
      case PURGE -> {
        if (!fired.waiters().isEmpty()) {
          String reason = "dependency " + id + " did not arrive within the retention window";
          owner.transitions.notifyWaiters(e, id, TaskState.DEAD, reason, now);
        }
        owner.forgetFired(id, fired);
        engine.metrics().count(SchedulerEvent.PURGED);
        return;
      }
    }
    owner.commitFired(id, fired, e);
  }

  /**
   * The wait timeout of task {@code id}, armed for {@code at}, passed: when the task is still
   * waiting for its first dispatch with that very due time, its record notes {@code waitTimedOutAt}
   * (which raises {@code wait-timeout} through the {@link ReportRecorder}); the task itself keeps
   * waiting, its own timer untouched.
   */
  private void waitTimedOut(String id, long at, long now) {
    TaskRecord r = store.get(id);
    if (WaitTimers.at(r) != at) {
      engine.metrics().count(SchedulerEvent.TIMER_STALE);
      return;
    }
    TaskRecord.Edit e = r.edit();
    e.waitTimedOutAt = now;
    owner.commit(id, r, e);
  }
}
