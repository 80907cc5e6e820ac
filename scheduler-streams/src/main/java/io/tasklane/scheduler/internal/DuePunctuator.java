package io.tasklane.scheduler.internal;

import io.tasklane.core.ErrorInfo;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import java.util.ArrayDeque;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.Punctuator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wall-clock punctuator of one stream task (its stream thread; its writes go out with the next
 * commit): reads the due-index up to now, at most {@code scanBound} entries per tick, and fires
 * each timer (dispatch, deadline, purge, a schedule's fire), and forgets the finished tasks whose
 * retention passed ({@link FinishedPurge}). An entry that no longer matches its task's record is
 * stale and only removed; one whose firing throws is removed and its task goes DEAD ({@link
 * #poisoned}), so one bad timer never stalls the others. Then the {@link Dispatcher} releases
 * queued tasks of every handler with free slots, within what is left of the bound. The timers fire
 * only for the tick's {@link TimerShare} (shorter while input records wait); the entries left are
 * carried to the next ticks.
 */
final class DuePunctuator implements Punctuator {
  private static final Logger LOG = LoggerFactory.getLogger(DuePunctuator.class);
  private static final int REPAIR_SLICE = 2_000;

  /**
   * The time one slice of the timer repair after a (re)start may take: 5 ms, so that a store of
   * millions of tasks, read at tens of microseconds a record, is repaired over minutes while the
   * thread goes on admitting and dispatching. Shorter slices do not pay: each opens a store
   * iterator, which copies the record cache's keys in range first.
   */
  private static final long REPAIR_BUDGET_NANOS = 5_000_000L;

  /**
   * How often a stream task runs a repair slice, whatever the punctuation interval: every 200 ms,
   * so that six stream tasks on a thread repair with about 15 % of its time. A slice on every 20 ms
   * tick took all of the thread: a failover onto stores of 2.5 million tasks resumed dispatch only
   * after 26 s.
   */
  private static final long REPAIR_PERIOD_MS = 200;

  private final TaskMachine machine;
  private final ScheduleMachine schedules;
  private final TaskStore store;
  private final Engine engine;

  private final TimerShare share;

  /**
   * Entries a tick read but left unfired when its {@link TimerShare} ran out, oldest first: the
   * next ticks fire them before they read the index again (they stay in the index until fired, so a
   * crash or a move loses none).
   */
  private final ArrayDeque<DueIndex.Entry> carried = new ArrayDeque<>();

  /** When the next repair slice may run (punctuation time); the first tick runs one. */
  private long nextRepairAt = Long.MIN_VALUE;

  DuePunctuator(TaskMachine machine, ScheduleMachine schedules) {
    this.machine = machine;
    this.schedules = schedules;
    this.store = machine.store;
    this.engine = machine.engine;
    this.share =
        new TimerShare(
            engine.settings().punctuationInterval(), engine.memory()::input, engine.nanoTime());
  }

  @Override
  public void punctuate(long now) {
    long started = System.nanoTime();
    store.opened(now);
    // Count the load before any timer moves it (the count reads the index), and after a (re)start
    // write back index entries a kill -9 may have lost, and send again the dispatches of attempts
    // dispatched just before it, a slice per tick (at-least-once only).
    store.queues().countLoad();
    store.upgradeCounts();
    if (engine.settings().healTimers()) {
      if (now >= nextRepairAt) {
        nextRepairAt = now + REPAIR_PERIOD_MS;
        schedules.repairNextSlice(REPAIR_SLICE, REPAIR_BUDGET_NANOS);
        store.repairTimers(
            REPAIR_SLICE, REPAIR_BUDGET_NANOS, engine.metrics(), now, machine.dispatcher::resend);
      }
    }
    int bound = engine.settings().scanBound();
    int fired = fireDue(now, bound);
    int released = machine.dispatcher.releaseQueued(now, bound, this::poisonedQueued);
    fired +=
        store.purgeFinished(
            now,
            engine.settings().retentionMs(),
            bound - fired,
            this::purgeFailed,
            engine.metrics());
    store.flushReports(now);
    engine.metrics().scanned(System.nanoTime() - started, fired + released);
  }

  /**
   * Fires the entries carried from the last ticks, then those due now, up to {@code bound} in all
   * and while the {@link TimerShare} lasts (the first always fires); carries the rest. Returns how
   * many it handled.
   */
  private int fireDue(long now, int bound) {
    long budget = share.budget();
    long from = share.now();
    try {
      return fireWithin(now, bound, budget, from);
    } finally {
      share.spent(share.now() - from);
    }
  }

  private int fireWithin(long now, int bound, long budget, long from) {
    int fired = 0;
    while (!carried.isEmpty() && fired < bound) {
      if (fired > 0 && share.now() - from >= budget) {
        engine.metrics().count(SchedulerEvent.TIMERS_YIELDED);
        return fired;
      }
      fireCarried(carried.poll(), now);
      fired++;
    }
    if (fired >= bound) {
      return fired;
    }
    List<DueIndex.Entry> due = store.due(now, bound - fired);
    for (int i = 0; i < due.size(); i++) {
      if (fired > 0 && share.now() - from >= budget) {
        carried.addAll(due.subList(i, due.size()));
        engine.metrics().count(SchedulerEvent.TIMERS_YIELDED);
        return fired;
      }
      fireGuarded(due.get(i), now);
      fired++;
    }
    return fired;
  }

  /**
   * An entry carried from an earlier tick: input processed since may have moved or removed it, so
   * its value is read again, and one no longer in the index is stale.
   */
  private void fireCarried(DueIndex.Entry entry, long now) {
    if (entry.inMemory()) {
      fireGuarded(entry, now); // a deadline: checked against its record when it fires
      return;
    }
    byte[] value = store.entry(entry.key());
    if (value == null) {
      engine.metrics().count(SchedulerEvent.TIMER_STALE);
      return;
    }
    fireGuarded(new DueIndex.Entry(entry.key(), value), now);
  }

  private void fireGuarded(DueIndex.Entry entry, long now) {
    try {
      fire(entry, now);
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
    store.removeEntry(key);
    poisoned(id, now, error);
  }

  /** As {@link #poisoned(String, Bytes, long, RuntimeException)} for a queue entry. */
  private void poisonedQueued(String id, Bytes key, long now, RuntimeException error) {
    store.removeQueueEntry(key);
    poisoned(id, now, error);
  }

  private void poisoned(String id, long now, RuntimeException error) {
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
    machine.out.schedulerDeadLetter(id, raw, "timer-failed", why, error, now);
    engine.metrics().deadLettered("timer", "timer-failed");
    if (previous == null) {
      return;
    }
    try {
      if (previous.timerKind() == TimerKind.PURGE || previous.state() == null) {
        store.delete(id, previous);
        return;
      }
      TaskRecord.Edit e = previous.edit();
      e.lastError = new ErrorInfo("timer-failed", why, null);
      machine.finish(e, id, TaskState.DEAD, why, now);
      store.put(id, previous, e.build());
    } catch (RuntimeException e) {
      LOG.error("task {}: could not be set DEAD after its timer failed", id, e);
    }
  }

  /**
   * A finished task whose record cannot be read when its retention passed: its search entry and
   * record go, and its id goes to the scheduler DLT (reason {@code purge-failed}). Counted {@code
   * error.timer}.
   */
  private void purgeFailed(String id, Bytes key, long now, RuntimeException error) {
    LOG.error("task {}: its record cannot be read at its purge; forgotten", id, error);
    engine.metrics().count(SchedulerEvent.ERROR_TIMER);
    store.forgetUnreadable(id, key);
    machine.out.schedulerDeadLetter(id, null, "purge-failed", "purge failed: " + error, error, now);
    engine.metrics().deadLettered("timer", "purge-failed");
  }

  /**
   * Takes the entry out of the index and, when it still matches its task's record, fires it: DUE
   * hands the task to the {@link Dispatcher}, DEADLINE fails the attempt as a timeout, PURGE
   * forgets the task (telling a placeholder's waiters that it never came).
   */
  private void fire(DueIndex.Entry entry, long now) {
    if (!entry.inMemory()) {
      store.removeEntry(entry.key());
    }
    String id = entry.taskId();
    long at = entry.at();
    TimerKind kind = entry.kind();
    if (kind == TimerKind.SCHEDULE) {
      schedules.fire(ScheduleStore.nameOf(id), at, now);
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
      case DUE -> machine.dispatcher.dispatchOrPark(e, now);
      case DEADLINE -> {
        String msg = "no result within timeoutMs " + e.task.timeoutMs() + " ms + grace";
        e.endAttempt(e.attempt, now, "TIMEOUT", msg, null);
        engine.metrics().count(SchedulerEvent.TIMEOUT);
        machine.fail(e, id, new ErrorInfo("timeout", msg, null), now);
      }
      case PURGE -> {
        if (!fired.waiters().isEmpty()) {
          String reason = "dependency " + id + " did not arrive within the retention window";
          machine.notifyWaiters(e, id, TaskState.DEAD, reason, now);
        }
        store.deleteFired(id, fired);
        engine.metrics().count(SchedulerEvent.PURGED);
        return;
      }
    }
    store.putFired(id, fired, e.build());
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
    store.put(id, r, e.build());
  }
}
