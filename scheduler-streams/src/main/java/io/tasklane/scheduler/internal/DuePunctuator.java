package io.tasklane.scheduler.internal;

import io.tasklane.core.ErrorInfo;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wall-clock punctuator: range-scans the due-index up to now, at most {@code scanBound} entries
 * per tick, and fires each timer (dispatch, deadline, purge). An entry that no longer matches its
 * task's record is stale and only removed; one whose firing throws is removed and its task goes
 * DEAD ({@link #poisoned}), so one bad timer never stalls the others. Then it releases queued tasks
 * of every handler with free slots, oldest due first, within what is left of the bound.
 */
final class DuePunctuator implements Punctuator {
  private static final Logger LOG = LoggerFactory.getLogger(DuePunctuator.class);

  private final TaskMachine machine;
  private final TaskStore store;
  private final Engine engine;
  private static final int INDEX_READ_EVERY = 50;
  private static final int HEAD_BATCH = 2_000;
  private static final int HEAL_SLICE = 2_000;
  private final Map<String, ArrayDeque<Bytes>> heads = new HashMap<>();
  private long ticks;

  DuePunctuator(TaskMachine machine) {
    this.machine = machine;
    this.store = machine.store;
    this.engine = machine.engine;
  }

  @Override
  public void punctuate(long now) {
    long started = System.nanoTime();
    // Count the load before any timer moves it (the count reads the index), and after a (re)start
    // write back index entries a kill -9 may have lost, a slice per tick (at-least-once only).
    store.load().count(store);
    if (engine.settings().healTimers()) {
      store.load().healNextSlice(store, HEAL_SLICE, engine.metrics());
    }
    List<KeyValue<Bytes, byte[]>> due = new ArrayList<>();
    int bound = engine.settings().scanBound();
    try (KeyValueIterator<Bytes, byte[]> it =
        store.index().range(DueIndexKey.FIRST, DueIndexKey.upTo(now))) {
      while (it.hasNext() && due.size() < bound) {
        due.add(it.next());
      }
    }
    for (KeyValue<Bytes, byte[]> entry : due) {
      try {
        fire(entry.key, entry.value, now);
      } catch (StreamsException e) {
        throw e;
      } catch (RuntimeException e) {
        poisoned(DueIndexKey.taskId(entry.key), entry.key, now, e);
      }
    }
    int released = release(now, bound);
    engine.metrics().scanned(System.nanoTime() - started, due.size() + released);
  }

  /**
   * Dispatches up to {@code budget} queued tasks of handlers below {@code maxDispatched}, starting
   * with a different handler each tick so a small budget is shared in turn.
   */
  private int release(long now, int budget) {
    HandlerLoad load = store.load();
    long tick = ticks++;
    // The index is the truth about which queues exist, but a range over the cached store copies
    // the cached keys in it first: read it now and then, trust the counts in between.
    List<String> handlers =
        tick % INDEX_READ_EVERY == 0 ? store.queuedHandlers() : load.queuedHandlers();
    if (handlers.isEmpty()) {
      return 0;
    }
    Collections.rotate(handlers, -(int) (tick % handlers.size()));
    int released = 0;
    for (String handler : handlers) {
      int room =
          Math.min(
              budget - released,
              engine.settings().maxDispatched() - load.dispatched(handler, store));
      if (room <= 0) {
        continue;
      }
      ArrayDeque<Bytes> head = heads.computeIfAbsent(handler, h -> new ArrayDeque<>());
      if (head.isEmpty()) {
        readHead(handler, head);
      }
      if (head.isEmpty()) {
        load.queueEmpty(handler);
        heads.remove(handler);
        continue;
      }
      for (int n = 0; n < room && !head.isEmpty(); n++, released++) {
        Bytes key = head.poll();
        try {
          releaseOne(handler, key, now);
        } catch (StreamsException e) {
          throw e;
        } catch (RuntimeException e) {
          // Taken out of the queue so that it cannot block the queue's head tick after tick.
          poisoned(DueIndexKey.queuedTaskId(key, handler), key, now, e);
        }
      }
    }
    return released;
  }

  /**
   * Reads the next {@link #HEAD_BATCH} keys of a handler's queue in one range: one copy of the
   * cached keys per batch instead of one per tick. Tasks queued meanwhile with an earlier due time
   * wait for the next batch, so the order is due order batch by batch.
   */
  private void readHead(String handler, ArrayDeque<Bytes> head) {
    try (KeyValueIterator<Bytes, byte[]> it =
        store.index().range(DueIndexKey.queueFrom(handler), DueIndexKey.queueTo(handler))) {
      while (it.hasNext() && head.size() < HEAD_BATCH) {
        head.add(it.next().key);
      }
    }
  }

  private void releaseOne(String handler, Bytes key, long now) {
    String id = DueIndexKey.queuedTaskId(key, handler);
    TaskRecord previous = store.get(id);
    if (previous == null
        || previous.timerKind() != TimerKind.QUEUED
        || previous.timerAt() != DueIndexKey.queuedDueAt(key, handler)) {
      store.index().delete(key);
      engine.metrics().count(SchedulerEvent.TIMER_STALE);
      return;
    }
    TaskRecord.Edit e = previous.edit().noTimer();
    machine.dispatchOrPark(e, now, true);
    store.put(id, previous, e.build());
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
    LOG.error("timer of task {} failed; removed, the task goes DEAD", id, error);
    engine.metrics().count(SchedulerEvent.ERROR_TIMER);
    store.index().delete(key);
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

  private void fire(Bytes key, byte[] value, long now) {
    store.index().delete(key);
    String id = DueIndexKey.taskId(key);
    long at = DueIndexKey.dueAt(key);
    TimerKind kind = value == null || value.length == 0 ? null : TimerKind.of(value[0]);
    TaskRecord previous = store.get(id);
    if (previous == null || previous.timerAt() != at || previous.timerKind() != kind) {
      engine.metrics().count(SchedulerEvent.TIMER_STALE);
      return;
    }
    TaskRecord.Edit e = previous.edit().noTimer();
    switch (kind) {
      case DUE -> machine.dispatchOrPark(e, now);
      case DEADLINE -> {
        String msg = "no result within timeoutMs " + e.task.timeoutMs() + " ms + grace";
        e.endAttempt(e.attempt, now, "TIMEOUT", msg, null);
        engine.metrics().count(SchedulerEvent.TIMEOUT);
        machine.fail(e, id, new ErrorInfo("timeout", msg, null), now);
      }
      case PURGE -> {
        if (!previous.waiters().isEmpty()) {
          String reason = "dependency " + id + " did not arrive within the retention window";
          machine.notifyWaiters(e, id, TaskState.DEAD, reason, now);
        }
        store.delete(id, previous.edit().noTimer().build());
        engine.metrics().count(SchedulerEvent.PURGED);
        return;
      }
    }
    store.put(id, previous.edit().noTimer().build(), e.build());
  }
}
