package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleTrigger;
import io.tasklane.core.TaskIds;
import io.tasklane.core.Unschedule;
import io.tasklane.scheduler.internal.lifecycle.Engine;
import io.tasklane.scheduler.internal.lifecycle.Outputs;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.TaskHeaders;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recurring schedules (docs/schedules.md): applies definitions and unschedules in version order and
 * turns each due fire, manual trigger or child start into tasks through the overlap policy ({@link
 * FireRunner}), one per fire (or one per shard for {@code BROADCAST} and {@code ALL_WORKERS}), with
 * ids derived from (schedule, fire instant or trigger, shard) so that a replayed definition, a
 * rebalance or a crash mid-fire never makes a second task: admission drops a repeated id. An
 * unsharded fire's task is admitted in this partition at once; shard tasks go through {@code
 * <ns>.tasks}. One instance per stream task, used on its stream thread (processing and
 * punctuation); its store writes and tasks go out with the task's next commit.
 */
public final class ScheduleMachine {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduleMachine.class);

  /** Header naming the schedule a fire's task came from. */
  public static final String HEADER_SCHEDULE = TaskHeaders.SCHEDULE;

  /** Header with the fire instant (epoch millis) of a fire's task. */
  static final String HEADER_FIRE_TIME = TaskHeaders.FIRE_TIME;

  /** Header with the fire's id, which its finished-task notices name. */
  public static final String HEADER_FIRE_ID = TaskHeaders.FIRE_ID;

  /** Header with the parent fire's id on the tasks of a child schedule's fire. */
  static final String HEADER_PARENT_FIRE = TaskHeaders.PARENT_FIRE;

  private final ScheduleStore store;
  private final Engine engine;
  private final FireRunner runner;
  private boolean repaired;

  private final ParsedFires parsed = new ParsedFires();

  /** The last schedule name the timer repair read, or null before the first slice. */
  private String repairedUpTo;

  /**
   * @param local admits an unsharded fire's task in this stream task, where its placed id belongs
   *     (else it goes through {@code <ns>.tasks})
   */
  public ScheduleMachine(
      ScheduleStore store, Engine engine, Outputs out, FireRunner.LocalAdmission local) {
    this.store = store;
    this.engine = engine;
    this.runner = new FireRunner(engine, out, local);
  }

  /**
   * Applies a validated definition when its version is higher than the stored one (an older or
   * equal one is ignored and counted), setting its timer to its first fire after {@code now} (and
   * after its last fire). A disabled (paused) schedule keeps its timer so that each fire due while
   * it is paused is recorded as skipped; a resume (an enabled definition after a disabled one) sets
   * the timer to the first fire after the last one made, so the fires missed while paused are
   * handled by the misfire policy at the next tick, as after an outage.
   *
   * @throws io.tasklane.core.InvalidTaskException when its trigger does not parse (nothing stored)
   */
  public void define(ScheduleDefinition d, long now) {
    Fires fires = new Fires(d);
    ScheduleState previous = store.get(d.name());
    if (previous != null && d.version() <= previous.version()) {
      if (!previous.deleted() && d.equals(previous.definition())) {
        engine.metrics().count(SchedulerEvent.SCHEDULE_DUPLICATE);
        store.reassertTimer(d.name(), previous);
      } else {
        engine.metrics().count(SchedulerEvent.SCHEDULE_STALE);
      }
      return;
    }
    long last = previous == null ? Fires.NONE : previous.lastFireAt();
    boolean resumed = d.enabled() && last != Fires.NONE && paused(previous);
    long next = fires.after(resumed ? last : Math.max(now - 1, last));
    store.put(
        d.name(), previous, new ScheduleState(d, d.version(), false, next, last).keeping(previous));
    engine.metrics().count(SchedulerEvent.SCHEDULE_DEFINED);
    watchWorkers(d);
  }

  private static boolean paused(ScheduleState s) {
    return s != null && !s.deleted() && s.definition() != null && !s.definition().enabled();
  }

  /**
   * Asks the worker cache about a sharded schedule's handler now, so that it is fresh by the fire
   * (the cache reads only handlers it was asked about).
   */
  private void watchWorkers(ScheduleDefinition d) {
    if (d.routing() != ScheduleDefinition.Routing.ONE) {
      engine.workers().liveConsumers(d.handler());
    }
  }

  /**
   * Deletes the schedule and its fire timer unless a newer definition is stored. The name keeps the
   * version (so a replayed older definition stays refused) and the fire history for the retention
   * window; its timer then purges both ({@link #fire}), as finished tasks are purged. A fire
   * already made ahead of its instant ({@code schedule-lead}) still runs: cancelling it could split
   * a broadcast fire or interrupt an attempt that just started.
   */
  public void unschedule(Unschedule u, long now) {
    ScheduleState previous = store.get(u.name());
    if (previous != null && u.version() < previous.version()) {
      engine.metrics().count(SchedulerEvent.SCHEDULE_STALE);
      return;
    }
    long last = previous == null ? Fires.NONE : previous.lastFireAt();
    long purgeAt = now + engine.settings().retentionMs();
    store.put(
        u.name(),
        previous,
        new ScheduleState(null, u.version(), true, purgeAt, last).keeping(previous));
    engine.metrics().count(SchedulerEvent.SCHEDULE_DELETED);
  }

  /**
   * The timer of schedule {@code name} for its next fire (set at the fire's instant, or {@code
   * schedule-lead} before it) fired at {@code now} (its entry is already out of the index): starts
   * the fires its misfire policy keeps ({@link Misfires}) through the overlap policy ({@link
   * FireRunner}), records a dropped one as misfired, and sets the timer to the first fire after
   * {@code now}. A timer that no longer matches the stored schedule is stale and ignored. While the
   * schedule is paused the latest due fire is recorded as skipped ({@code paused}) and its last
   * fire stays, for the misfire policy at the resume.
   */
  public void fire(String name, long timer, long now) {
    ScheduleState s = store.get(name);
    if (s != null && s.deleted() && timer == s.nextFireAt()) {
      store.purge(name);
      engine.metrics().count(SchedulerEvent.SCHEDULE_PURGED);
      return;
    }
    if (s == null
        || s.deleted()
        || (timer != store.timerAt(s) && timer != s.nextFireAt())) { // the latter: written
      // before schedule-lead, or before the lead changed
      engine.metrics().count(SchedulerEvent.TIMER_STALE);
      return;
    }
    long at = s.nextFireAt();
    ScheduleDefinition d = s.definition();
    Fires fires = parsed.of(d);
    if (!d.enabled()) {
      long latest = Math.max(at, fires.atOrBefore(now));
      String fireId = TaskIds.forScheduleFire(name, latest, -1);
      s = runner.start(s, FireRunner.fire(fireId, latest, FireRecord.Kind.CALENDAR, null), now);
      store.putFired(name, s.withTimer(fires.after(Math.max(now, at)), s.lastFireAt()));
      return;
    }
    // a timer that fires ahead (schedule-lead) makes the fire at its instant: its task is due then
    List<Long> made = Misfires.toFire(parsed.misfire(d), fires, at, Math.max(now, at), tolerance());
    for (long fireAt : made) {
      String fireId = TaskIds.forScheduleFire(name, fireAt, -1);
      s = runner.start(s, FireRunner.fire(fireId, fireAt, FireRecord.Kind.CALENDAR, null), now);
    }
    if (made.isEmpty()) {
      engine.metrics().count(SchedulerEvent.SCHEDULE_MISFIRE_SKIPPED);
    }
    if (made.isEmpty() && !store.has(name, s, at, TaskIds.forScheduleFire(name, at, -1))) {
      String why = "late by " + (now - at) + " ms; misfire policy " + d.misfire();
      FireRecord missed =
          FireRecord.noTask(
              TaskIds.forScheduleFire(name, at, -1),
              at,
              FireRecord.Kind.CALENDAR,
              0,
              null,
              FireRecord.Outcome.MISFIRED,
              why);
      s = s.withFires(FireHistory.put(s.fires(), missed), s.waiting());
    }
    long last = made.isEmpty() ? s.lastFireAt() : made.get(made.size() - 1);
    store.putFired(name, s.withTimer(fires.after(Math.max(now, at)), last));
    watchWorkers(d);
  }

  /**
   * A manual trigger or a child start: a fire now, outside the calendar, with the id {@link
   * ScheduleTrigger#fireId()}, through the overlap policy. A repeat of a fire the schedule has is
   * ignored (and its tasks' ids are derived, so admission drops them anyway).
   *
   * @throws io.tasklane.core.InvalidTaskException naming {@code name} when no such schedule exists
   */
  public void trigger(ScheduleTrigger t, long now) {
    ScheduleState s = store.get(t.name());
    if (s == null || s.deleted()) {
      throw new io.tasklane.core.InvalidTaskException(
          "name",
          "no schedule '" + t.name() + "'" + (s == null ? "" : " (deleted)") + " to trigger");
    }
    String fireId = t.fireId();
    // a trigger with its request time has a fire at that instant: one read finds any repeat
    if (t.requestedAt() > 0
        ? store.has(t.name(), s, t.requestedAt(), fireId)
        : store.hasRecent(t.name(), s, fireId)) {
      engine.metrics().count(SchedulerEvent.SCHEDULE_TRIGGER_DUPLICATE);
      return;
    }
    engine.metrics().count(SchedulerEvent.SCHEDULE_TRIGGERED);
    FireRecord.Kind kind = t.isChild() ? FireRecord.Kind.CHILD : FireRecord.Kind.TRIGGER;
    long at = t.requestedAt() > 0 ? t.requestedAt() : now;
    store.putFired(t.name(), runner.start(s, FireRunner.fire(fireId, at, kind, t), now));
  }

  /**
   * A fire's task finished ({@link io.tasklane.core.ScheduleFireDone}): history, queue, children. A
   * fire kept in the {@link FireLog} (a running fire of an {@code ALLOW} schedule, or a finished
   * fire whose DEAD task was retried with {@code retry-dead} and finished again) is updated there,
   * and starts its children when it now succeeded.
   */
  public void fireDone(io.tasklane.core.ScheduleFireDone notice, long now) {
    ScheduleState s = store.get(notice.name());
    if (s == null) {
      engine.metrics().count(SchedulerEvent.SCHEDULE_FIRE_DONE_UNKNOWN);
      return;
    }
    if (FireHistory.find(s.fires(), notice.fireId()) == null) {
      FireRecord logged = store.loggedFire(notice.name(), notice.fireAt(), notice.fireId());
      if (logged == null) {
        engine.metrics().count(SchedulerEvent.SCHEDULE_FIRE_DONE_UNKNOWN);
        return;
      }
      FireRecord next = runner.doneLogged(s, logged, notice, now);
      if (next != null) {
        store.rewriteLogged(notice.name(), next);
      }
      ScheduleState started = runner.runWaiting(s, now); // a QUEUE schedule made ALLOW meanwhile
      if (started != s) {
        store.putFired(notice.name(), started);
      }
      return;
    }
    ScheduleState next = runner.done(s, notice, now);
    if (next != s) {
      store.putFired(notice.name(), next);
    }
  }

  /**
   * After the stream task opens (restore, move or crash), a slice per call until the whole store
   * has been read: writes back schedule timers a crash lost ({@link ScheduleStore#repairTimers}),
   * at most {@code slice} schedules and for at most {@code budgetNanos}. A store that cannot be
   * read is logged and the repair given up, never retried in a loop.
   */
  public void repairNextSlice(int slice, long budgetNanos) {
    if (repaired) {
      return;
    }
    try {
      repairedUpTo =
          store.repairTimers(
              repairedUpTo, slice, System.nanoTime() + budgetNanos, engine.metrics());
      repaired = repairedUpTo == null;
    } catch (org.apache.kafka.streams.errors.StreamsException e) {
      throw e;
    } catch (RuntimeException e) {
      repaired = true;
      LOG.error("schedule timers could not be written back", e);
      engine.metrics().count(SchedulerEvent.TIMER_HEAL_UNREADABLE);
    }
  }

  /** A fire is on time when found within two ticks of the punctuator (at least a second). */
  private long tolerance() {
    return Math.max(1_000L, 2 * engine.settings().punctuationInterval().toMillis());
  }
}
