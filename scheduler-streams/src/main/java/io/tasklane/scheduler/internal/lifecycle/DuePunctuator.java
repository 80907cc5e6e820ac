package io.tasklane.scheduler.internal.lifecycle;

import java.util.ArrayDeque;
import java.util.List;
import org.apache.kafka.streams.processor.Punctuator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wall-clock punctuator of one stream task (its stream thread; its writes go out with the next
 * commit): reads the due-index up to now, at most {@code scanBound} entries per tick, and fires
 * each timer (dispatch, deadline, purge, a schedule's fire) through the {@link TaskLifecycle}
 * ({@link TimerFiring}), and forgets the finished tasks whose retention passed ({@link
 * FinishedPurge}). Then the {@link Dispatcher} releases queued tasks of every handler with free
 * slots, within what is left of the bound. The timers fire only for the tick's {@link TimerShare}
 * (shorter while input records wait); the entries left are carried to the next ticks.
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

  private final TaskLifecycle tasks;
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

  DuePunctuator(TaskLifecycle tasks) {
    this.tasks = tasks;
    this.engine = tasks.engine;
    this.share =
        new TimerShare(
            engine.settings().punctuationInterval(), engine.memory()::input, engine.nanoTime());
  }

  @Override
  public void punctuate(long now) {
    long started = System.nanoTime();
    tasks.opened(now);
    // Count the load before any timer moves it (the count reads the index), and after a (re)start
    // write back index entries a kill -9 may have lost, and send again the dispatches of attempts
    // dispatched just before it, a slice per tick (at-least-once only).
    tasks.beforeTimers();
    if (engine.settings().healTimers()) {
      if (now >= nextRepairAt) {
        nextRepairAt = now + REPAIR_PERIOD_MS;
        tasks.timers.schedules.repairNextSlice(REPAIR_SLICE, REPAIR_BUDGET_NANOS);
        tasks.repairTimers(REPAIR_SLICE, REPAIR_BUDGET_NANOS, now);
      }
    }
    int bound = engine.settings().scanBound();
    int fired = fireDue(now, bound);
    int released = tasks.releaseQueued(now, bound);
    fired += tasks.purgeFinished(now, bound - fired);
    tasks.flushReports(now);
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
    List<DueIndex.Entry> due = tasks.due(now, bound - fired);
    for (int i = 0; i < due.size(); i++) {
      if (fired > 0 && share.now() - from >= budget) {
        carried.addAll(due.subList(i, due.size()));
        engine.metrics().count(SchedulerEvent.TIMERS_YIELDED);
        return fired;
      }
      tasks.timers.fire(due.get(i), now);
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
      tasks.timers.fire(entry, now); // a deadline: checked against its record when it fires
      return;
    }
    byte[] value = tasks.timerEntry(entry.key());
    if (value == null) {
      engine.metrics().count(SchedulerEvent.TIMER_STALE);
      return;
    }
    tasks.timers.fire(new DueIndex.Entry(entry.key(), value), now);
  }
}
