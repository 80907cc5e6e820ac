package io.tasklane.scheduler.internal;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The schedules of one stream task ({@link Stores#SCHEDULES}) and their timers, which live in the
 * task timers' {@link DueIndex} as {@link TimerKind#SCHEDULE} entries under {@link #TIMER_PREFIX}
 * and the name (task ids are UUIDs, so they never collide). Writing a state also moves its timer's
 * entry. One instance per processor, opened in its {@code init}; used on the stream task's thread
 * only; its writes go to the stores' caches and reach the changelogs at the next commit, with the
 * task stores' writes.
 */
final class ScheduleStore {
  /** The prefix of a schedule's timer id in the due-index. */
  static final String TIMER_PREFIX = "schedule:";

  private final KeyValueStore<String, ScheduleState> schedules;
  private final DueIndex index;

  /**
   * @param memories the process's task memories: the stream task's one learns of every schedule
   *     timer written, so that its punctuator does not skip it
   */
  ScheduleStore(ProcessingContext context, TaskMemory.Registry memories) {
    this.schedules = context.getStateStore(Stores.SCHEDULES);
    TaskId task = context.taskId();
    this.index = new DueIndex(context.getStateStore(Stores.DUE_INDEX), () -> memories.of(task));
  }

  /** The due-index id of schedule {@code name}'s timer. */
  static String timerId(String name) {
    return TIMER_PREFIX + name;
  }

  /** The schedule name of a due-index id, or null when it is a task id. */
  static String nameOf(String timerId) {
    return timerId.startsWith(TIMER_PREFIX) ? timerId.substring(TIMER_PREFIX.length()) : null;
  }

  ScheduleState get(String name) {
    return schedules.get(name);
  }

  /** Stores {@code next} in place of {@code previous} (null when new), moving the timer. */
  void put(String name, ScheduleState previous, ScheduleState next) {
    if (previous != null && previous.hasTimer() && previous.nextFireAt() != next.nextFireAt()) {
      index.delete(previous.nextFireAt(), timerId(name));
    }
    putFired(name, next);
  }

  /** Stores {@code next}; the punctuator already took the fired timer's entry out of the index. */
  void putFired(String name, ScheduleState next) {
    if (next.hasTimer()) {
      index.put(next.nextFireAt(), timerId(name), TimerKind.SCHEDULE);
    }
    schedules.put(name, next);
  }

  /** Writes {@code state}'s timer entry again when it is missing (a repeated definition). */
  void reassertTimer(String name, ScheduleState state) {
    if (state.hasTimer() && !index.has(state.nextFireAt(), timerId(name))) {
      index.put(state.nextFireAt(), timerId(name), TimerKind.SCHEDULE);
    }
  }

  /**
   * Writes back the timer entry of every schedule whose entry is missing (lost by a crash between
   * the stores' flushes); returns how many. Reads the whole store: schedules are few.
   */
  int repairTimers() {
    int healed = 0;
    try (KeyValueIterator<String, ScheduleState> it = schedules.all()) {
      while (it.hasNext()) {
        KeyValue<String, ScheduleState> kv = it.next();
        if (kv.value != null
            && kv.value.hasTimer()
            && !index.has(kv.value.nextFireAt(), timerId(kv.key))) {
          index.put(kv.value.nextFireAt(), timerId(kv.key), TimerKind.SCHEDULE);
          healed++;
        }
      }
    }
    return healed;
  }
}
