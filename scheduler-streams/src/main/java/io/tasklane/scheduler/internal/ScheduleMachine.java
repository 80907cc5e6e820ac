package io.tasklane.scheduler.internal;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.Shard;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.Unschedule;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recurring schedules (docs/schedules.md): applies definitions and unschedules in version order and
 * turns each due fire into tasks on {@code <ns>.tasks}, one per fire (or one per shard for {@code
 * BROADCAST}), with ids derived from (schedule, fire instant, shard) so that a replayed definition,
 * a rebalance or a crash mid-fire never makes a second task: admission drops a repeated id. One
 * instance per stream task, used on its stream thread (processing and punctuation); its store
 * writes and tasks go out with the task's next commit.
 */
final class ScheduleMachine {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduleMachine.class);

  /** Header naming the schedule a fire's task came from. */
  static final String HEADER_SCHEDULE = "tasklane.schedule";

  /** Header with the fire instant (epoch millis) of a fire's task. */
  static final String HEADER_FIRE_TIME = "tasklane.fire-time";

  private final ScheduleStore store;
  private final Engine engine;
  private final Outputs out;
  private boolean repaired;

  ScheduleMachine(ScheduleStore store, Engine engine, Outputs out) {
    this.store = store;
    this.engine = engine;
    this.out = out;
  }

  /**
   * Applies a validated definition when its version is higher than the stored one (an older or
   * equal one is ignored and counted), setting its timer to its first fire after {@code now} (and
   * after its last fire) unless it is disabled.
   *
   * @throws io.tasklane.core.InvalidTaskException when its trigger does not parse (nothing stored)
   */
  void define(ScheduleDefinition d, long now) {
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
    long next = d.enabled() ? fires.after(Math.max(now - 1, last)) : Fires.NONE;
    store.put(d.name(), previous, new ScheduleState(d, d.version(), false, next, last));
    engine.metrics().count(SchedulerEvent.SCHEDULE_DEFINED);
  }

  /** Deletes the schedule and its timer unless a newer definition is stored. */
  void unschedule(Unschedule u) {
    ScheduleState previous = store.get(u.name());
    if (previous != null && u.version() < previous.version()) {
      engine.metrics().count(SchedulerEvent.SCHEDULE_STALE);
      return;
    }
    long last = previous == null ? Fires.NONE : previous.lastFireAt();
    store.put(u.name(), previous, new ScheduleState(null, u.version(), true, Fires.NONE, last));
    engine.metrics().count(SchedulerEvent.SCHEDULE_DELETED);
  }

  /**
   * The timer of schedule {@code name} for the fire at {@code at} fired at {@code now} (its entry
   * is already out of the index): makes the fires its misfire policy keeps ({@link Misfires}) into
   * tasks and sets the timer to the first fire after {@code now}. A timer that no longer matches
   * the stored schedule is stale and ignored.
   */
  void fire(String name, long at, long now) {
    ScheduleState s = store.get(name);
    if (s == null || s.deleted() || s.nextFireAt() != at) {
      engine.metrics().count(SchedulerEvent.TIMER_STALE);
      return;
    }
    ScheduleDefinition d = s.definition();
    Fires fires = new Fires(d);
    List<Long> made = Misfires.toFire(d.misfirePolicy(), fires, at, now, tolerance());
    for (long fireAt : made) {
      emit(d, fireAt, now);
    }
    if (made.isEmpty()) {
      engine.metrics().count(SchedulerEvent.SCHEDULE_MISFIRE_SKIPPED);
    }
    long last = made.isEmpty() ? s.lastFireAt() : made.get(made.size() - 1);
    store.putFired(name, s.withTimer(fires.after(Math.max(now, at)), last));
  }

  /**
   * Once per stream task after it opens (restore, move or crash), at its first tick: writes back
   * schedule timers a crash lost ({@link ScheduleStore#repairTimers}), counted {@code
   * timer.healed}. A store that cannot be read is logged and skipped, never retried in a loop.
   */
  void repairOnce() {
    if (repaired) {
      return;
    }
    repaired = true;
    try {
      for (int i = store.repairTimers(); i > 0; i--) {
        engine.metrics().count(SchedulerEvent.TIMER_HEALED);
      }
    } catch (org.apache.kafka.streams.errors.StreamsException e) {
      throw e;
    } catch (RuntimeException e) {
      LOG.error("schedule timers could not be written back", e);
      engine.metrics().count(SchedulerEvent.TIMER_HEAL_UNREADABLE);
    }
  }

  /** A fire is on time when found within two ticks of the punctuator (at least a second). */
  private long tolerance() {
    return Math.max(1_000L, 2 * engine.settings().punctuationInterval().toMillis());
  }

  private void emit(ScheduleDefinition d, long fireAt, long now) {
    if (d.routing() == ScheduleDefinition.Routing.BROADCAST) {
      for (int i = 0; i < d.shards(); i++) {
        emit(d, fireAt, i, new Shard(i, d.shards()), now);
      }
    } else {
      emit(d, fireAt, -1, null, now);
    }
  }

  private void emit(ScheduleDefinition d, long fireAt, int index, Shard shard, long now) {
    TaskEnvelope task =
        TaskEnvelope.builder()
            .id(TaskIds.forScheduleFire(d.name(), fireAt, index))
            .handler(d.handler())
            .payload(d.payload())
            .dueAt(fireAt)
            .maxAttempts(d.maxAttempts())
            .timeoutMs(d.timeoutMs())
            .backoff(d.backoff())
            .headers(Map.of(HEADER_SCHEDULE, d.name(), HEADER_FIRE_TIME, String.valueOf(fireAt)))
            .createdAt(now)
            .shard(shard)
            .build();
    out.task(task, now);
    engine.metrics().count(SchedulerEvent.SCHEDULE_FIRED);
  }
}
