package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.scheduler.internal.lifecycle.ScheduleTimerEntries;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.SchedulerMetrics;
import io.tasklane.scheduler.internal.lifecycle.StoreSlice;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import io.tasklane.scheduler.internal.lifecycle.TimerKind;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The schedules of one stream task ({@link Stores#SCHEDULES}), their logged fires ({@link FireLog})
 * and their timers, which live in the task timers' due-index ({@link ScheduleTimerEntries}) as
 * {@link TimerKind#SCHEDULE} entries under {@link #TIMER_PREFIX} and the name (task ids are UUIDs,
 * so they never collide). Writing a state also moves its timer's entry. One instance per stream
 * task, opened with it; used on the stream task's thread only; a state, its logged fires and then
 * its timer entry are written through to RocksDB and the changelogs at once (under {@code
 * exactly_once_v2} all in the commit's transaction; {@link Stores}). The states it read or wrote
 * last are kept decoded, so a schedule that fires often is not decoded from JSON at every fire.
 */
public final class ScheduleStore {
  /**
   * How many schedule states {@link #recent} keeps: the schedules of a partition that fire every
   * few seconds, so that a fire does not decode its schedule's state from the store.
   */
  static final int RECENT_STATES = 2_048;

  /** The prefix of a schedule's timer id in the due-index. */
  static final String TIMER_PREFIX = "schedule:";

  private final KeyValueStore<String, ScheduleState> schedules;
  private final FireLog log;
  private final ScheduleTimerEntries index;
  private final long leadMs;

  /**
   * The schedule states read or written last, the newest {@link #RECENT_STATES}: each equals the
   * store's value, as every write of the schedule store goes through this one instance of the
   * stream task.
   */
  private final Map<String, ScheduleState> recent =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ScheduleState> eldest) {
          return size() > RECENT_STATES;
        }
      };

  /**
   * @param index the stream task's due-index, shared with its tasks' timers, so that its punctuator
   *     learns of every schedule timer written
   * @param leadMs {@code schedule-lead}: how long before its instant an {@code ALLOW} schedule's
   *     timer fires
   */
  public ScheduleStore(ProcessingContext context, ScheduleTimerEntries index, long leadMs) {
    this.leadMs = leadMs;
    this.schedules = context.getStateStore(Stores.SCHEDULES);
    this.log = new FireLog(context.getStateStore(Stores.SCHEDULE_FIRES));
    this.index = index;
  }

  private Map<String, ScheduleState> recent() {
    return recent;
  }

  /** Forgets the decoded states, as when the stream task reopens (tests). */
  public void forgetMemory() {
    recent.clear();
  }

  /** The due-index id of schedule {@code name}'s timer. */
  static String timerId(String name) {
    return TIMER_PREFIX + name;
  }

  /** The schedule name of a due-index id, or null when it is a task id. */
  public static String nameOf(String timerId) {
    return timerId.startsWith(TIMER_PREFIX) ? timerId.substring(TIMER_PREFIX.length()) : null;
  }

  /**
   * When the timer of {@code s} fires: {@code schedule-lead} before its next fire when the schedule
   * is enabled and lets fires overlap ({@code ALLOW}, the default), so that the fire's task is made
   * ahead and dispatched by its own timer at the instant; at the instant otherwise, as the overlap
   * policy (or the pause) must see which fires still run at that moment.
   */
  long timerAt(ScheduleState s) {
    ScheduleDefinition d = s.definition();
    boolean ahead =
        d != null && !s.deleted() && d.enabled() && d.overlap() == ScheduleDefinition.Overlap.ALLOW;
    return ahead ? Math.max(0, s.nextFireAt() - leadMs) : s.nextFireAt();
  }

  /**
   * The state of schedule {@code name}, null when none; from memory when read or written lately.
   */
  ScheduleState get(String name) {
    ScheduleState s = recent().get(name);
    if (s == null) {
      s = schedules.get(name);
      if (s != null) {
        recent().put(name, s);
      }
    }
    return s;
  }

  /** Stores {@code next} in place of {@code previous} (null when new), moving the timer. */
  void put(String name, ScheduleState previous, ScheduleState next) {
    boolean moved =
        previous != null
            && previous.hasTimer()
            && (!next.hasTimer() || timerAt(previous) != timerAt(next));
    putFired(name, next);
    if (moved) {
      index.delete(timerAt(previous), timerId(name));
    }
  }

  /**
   * Stores {@code next}, the fires no overlap policy needs moved to the {@link FireLog}, then its
   * timer's entry (so that it never leads the state); the punctuator already took the fired timer's
   * entry out of the index.
   */
  void putFired(String name, ScheduleState next) {
    ScheduleState stored = log.moveDetached(name, next);
    schedules.put(name, stored);
    recent().put(name, stored);
    if (next.hasTimer()) {
      index.put(timerAt(next), timerId(name));
    }
  }

  /**
   * Whether schedule {@code s} has the fire {@code fireId}: in its state or among its newest {@link
   * FireHistory#KEEP} logged ones.
   */
  boolean hasRecent(String name, ScheduleState s, String fireId) {
    return FireHistory.find(s.fires(), fireId) != null || log.hasRecent(name, fireId);
  }

  /** Whether schedule {@code s} has the fire {@code fireId} at {@code fireAt}, finished or not. */
  boolean has(String name, ScheduleState s, long fireAt, String fireId) {
    return FireHistory.find(s.fires(), fireId) != null || log.has(name, fireAt, fireId);
  }

  /**
   * The fire {@code fireId} kept in the log (a running fire of an {@code ALLOW} schedule, or a
   * finished one), or null: one read when the notice carries the fire's instant, else a look
   * through the schedule's newest logged fires.
   */
  FireRecord loggedFire(String name, Long fireAt, String fireId) {
    return fireAt != null ? log.get(name, fireAt, fireId) : log.find(name, fireId);
  }

  /**
   * Forgets a deleted schedule whose retention passed: its state and its logged fires (the
   * punctuator already took its timer's entry out of the index).
   */
  void purge(String name) {
    log.deleteAll(name);
    schedules.put(name, null);
    recent().remove(name);
  }

  /** Writes a logged fire's changed record over its entry (one of its tasks finished). */
  void rewriteLogged(String name, FireRecord f) {
    log.rewrite(name, f);
  }

  /** Writes {@code state}'s timer entry again when it is missing (a repeated definition). */
  void reassertTimer(String name, ScheduleState state) {
    if (state.hasTimer() && !index.has(timerAt(state), timerId(name))) {
      index.put(timerAt(state), timerId(name));
    }
  }

  /**
   * Writes back the missing timer entries (lost by a crash between the stores' flushes) of up to
   * {@code n} schedules after {@code after} (null: from the first), stopping early at {@code
   * deadline} ({@link System#nanoTime}; at least one is read), so that a partition of a million
   * schedules is read over many ticks instead of all of it in its first one. Each written back is
   * counted {@code timer.healed}, each state that cannot be decoded {@code timer.heal-unreadable}
   * (skipped). Returns the last name read, or null when the store has been read to its end.
   */
  String repairTimers(String after, int n, long deadline, SchedulerMetrics metrics) {
    return StoreSlice.read(
        schedules,
        after,
        n,
        deadline,
        metrics,
        (name, s) -> {
          if (s != null && s.hasTimer() && !index.has(timerAt(s), timerId(name))) {
            index.put(timerAt(s), timerId(name));
            metrics.count(SchedulerEvent.TIMER_HEALED);
          }
        });
  }

  /**
   * Not cached, like the task records: a schedule state (a few hundred bytes) is written once per
   * fire, so within a commit interval there is nothing to fold, and at thousands of fires a second
   * the states filled the record cache (docs/scheduler-streams.md, Stores). Reads come from the
   * stream task's memory ({@code ScheduleStore}); its timers are due-index entries.
   */
  public static StoreBuilder<KeyValueStore<String, ScheduleState>> statesStore() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
            org.apache.kafka.streams.state.Stores.persistentKeyValueStore(Stores.SCHEDULES),
            Serdes.String(),
            new ScheduleState.StoreSerde())
        .withCachingDisabled();
  }

  /**
   * Not cached, like the schedules, so that a fire's state and its log record are written together,
   * in the order they are made.
   */
  public static StoreBuilder<KeyValueStore<Bytes, byte[]>> firesStore() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
            org.apache.kafka.streams.state.Stores.persistentKeyValueStore(Stores.SCHEDULE_FIRES),
            Serdes.Bytes(),
            Serdes.ByteArray())
        .withCachingDisabled();
  }
}
