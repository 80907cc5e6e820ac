package io.tasklane.scheduler.internal;

import io.tasklane.core.TaskState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * One stream task's per-handler load: attempts out (records in DISPATCHED) and tasks waiting in the
 * handler's queue (records whose timer is {@link TimerKind#QUEUED}). Kept in memory only: counted
 * from the stores the first time it is asked after the task's processors start (so after
 * restoration, and again after every crash or move), then kept up to date by {@link TaskStore} on
 * every write. Deriving it from the stores, never storing it, means a crash cannot leak a slot for
 * longer than the process lives. Used on the task's stream thread only.
 */
final class HandlerLoad {
  /** The loads of the stream tasks of one process, by task id. Thread-safe. */
  static final class Registry {
    private final Map<TaskId, HandlerLoad> loads = new ConcurrentHashMap<>();

    /** The load of {@code task}, new after {@link #forget}. */
    HandlerLoad of(TaskId task) {
      return loads.computeIfAbsent(task, t -> new HandlerLoad());
    }

    /** The task's processors closed (moved, crashed or shut down): count again next time. */
    void forget(TaskId task) {
      loads.remove(task);
    }
  }

  private final Map<String, Integer> dispatched = new HashMap<>();
  private final Map<String, Integer> queued = new TreeMap<>(); // sorted like the index
  private boolean counted;
  private boolean healed;
  private String healedUpTo;

  /** The attempts of {@code handler} out right now. */
  int dispatched(String handler, TaskStore store) {
    count(store);
    return dispatched.getOrDefault(handler, 0);
  }

  /**
   * About how many tasks of {@code handler} wait in its queue: a hint for keeping the order (a
   * newcomer queues behind them). Which queues exist is read from the index now and then ({@link
   * TaskStore#queuedHandlers()}), so a wrong hint never strands a queue.
   */
  int queued(String handler, TaskStore store) {
    count(store);
    return queued.getOrDefault(handler, 0);
  }

  /** Handlers whose queued count is above zero (a hint; see {@link #queued}). */
  List<String> queuedHandlers() {
    return new ArrayList<>(queued.keySet());
  }

  /**
   * Heals the next slice of timers after a (re)start ({@link TaskStore#healTimers}); a no-op once
   * the whole store has been read.
   */
  void healNextSlice(TaskStore store, int slice, SchedulerMetrics metrics) {
    if (healed) {
      return;
    }
    healedUpTo = store.healTimers(healedUpTo, slice, metrics);
    healed = healedUpTo == null;
  }

  /** The handler's queue turned out empty: forget a count left by stale queue entries. */
  void queueEmpty(String handler) {
    queued.remove(handler);
  }

  /** Accounts for {@code previous} (null when new) becoming {@code next} (null when deleted). */
  void moved(TaskRecord previous, TaskRecord next) {
    if (!counted) {
      return;
    }
    add(previous, -1);
    add(next, 1);
  }

  /**
   * Counts from the due-index (queue keys, then timer keys) once per life of this object. Their
   * keys are cheap to walk (no decoding) and queue keys carry their handler; a DEADLINE entry
   * counts only when its record is DISPATCHED with that very deadline timer, so a stale entry left
   * by a crash is not counted.
   */
  void count(TaskStore store) {
    if (counted) {
      return;
    }
    try (KeyValueIterator<Bytes, byte[]> it =
        store.index().range(DueIndexKey.QUEUES_FIRST, DueIndexKey.QUEUES_LAST)) {
      while (it.hasNext()) {
        String queue = DueIndexKey.queueHandler(it.next().key);
        if (queue != null) {
          bump(queued, queue, 1);
        }
      }
    }
    try (KeyValueIterator<Bytes, byte[]> it =
        store.index().range(DueIndexKey.FIRST, DueIndexKey.TIMERS_LAST)) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        if (kv.value != null && kv.value.length > 0 && kv.value[0] == TimerKind.DEADLINE.code) {
          TaskRecord r = readable(store, DueIndexKey.taskId(kv.key));
          if (r != null
              && r.task() != null
              && r.state() == TaskState.DISPATCHED
              && r.timerKind() == TimerKind.DEADLINE
              && r.timerAt() == DueIndexKey.dueAt(kv.key)) {
            bump(dispatched, r.task().handler(), 1);
          }
        }
      }
    }
    counted = true;
  }

  /** The record, or null when it cannot be read (its timer fails and is handled when it fires). */
  private static TaskRecord readable(TaskStore store, String id) {
    try {
      return store.get(id);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private void add(TaskRecord r, int delta) {
    if (r == null || r.task() == null) {
      return;
    }
    if (r.state() == TaskState.DISPATCHED) {
      bump(dispatched, r.task().handler(), delta);
    }
    if (r.timerKind() == TimerKind.QUEUED) {
      bump(queued, r.task().handler(), delta);
    }
  }

  private static void bump(Map<String, Integer> map, String handler, int delta) {
    int next = map.getOrDefault(handler, 0) + delta;
    if (next <= 0) {
      map.remove(handler);
    } else {
      map.put(handler, next);
    }
  }
}
