package io.tasklane.scheduler.internal;

import io.tasklane.core.TaskState;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The three stores of one stream task behind one door: writing a record also moves its due-index
 * entry (or queue entry), its state count and its {@link HandlerLoad}, so none of them drifts from
 * the records.
 */
final class TaskStore {
  private final KeyValueStore<String, TaskRecord> tasks;
  private final KeyValueStore<Bytes, byte[]> index;
  private final KeyValueStore<String, Long> counts;
  private final HandlerLoad.Registry loads;
  private final TaskId taskId;

  TaskStore(ProcessingContext context, HandlerLoad.Registry loads) {
    this.tasks = context.getStateStore(Stores.TASKS);
    this.index = context.getStateStore(Stores.DUE_INDEX);
    this.counts = context.getStateStore(Stores.STATE_COUNTS);
    this.loads = loads;
    this.taskId = context.taskId();
  }

  /** This stream task's per-handler load (attempts out, tasks queued); new after a forget. */
  HandlerLoad load() {
    return loads.of(taskId);
  }

  TaskRecord get(String id) {
    return tasks.get(id);
  }

  /**
   * The routing key records about task {@code id} must carry: its envelope's ({@code orderingKey}
   * or id) when the task lives here, else the id (results and commands for a task that is not here
   * are keyed by its id; an ordering key would have brought them to the task).
   */
  String routingKeyOf(String id) {
    TaskRecord r = tasks.get(id);
    return r != null && r.task() != null ? r.task().routingKey() : id;
  }

  KeyValueStore<Bytes, byte[]> index() {
    return index;
  }

  /** Stores {@code next} (replacing {@code previous}, null when new) with its timer and count. */
  void put(String id, TaskRecord previous, TaskRecord next) {
    if (previous != null
        && previous.hasTimer()
        && (previous.timerAt() != next.timerAt() || previous.timerKind() != next.timerKind())) {
      index.delete(indexKey(id, previous));
    }
    if (next.hasTimer()) {
      index.put(indexKey(id, next), new byte[] {next.timerKind().code});
    }
    TaskState before = previous == null ? null : previous.state();
    if (before != next.state()) {
      count(before, -1);
      count(next.state(), 1);
    }
    tasks.put(id, next);
    load().moved(previous, next);
  }

  /**
   * Writes {@code record}'s due-index entry again. Under at-least-once a crash can restore the task
   * record without the index entry written with it; the replayed input then finds the record
   * "already done", so every path that ignores a repeat calls this to heal the index.
   */
  void reassertTimer(String id, TaskRecord record) {
    if (record.hasTimer()) {
      index.put(indexKey(id, record), new byte[] {record.timerKind().code});
    }
  }

  /**
   * Writes back the missing index entries of up to {@code n} records after {@code after} (null:
   * from the first). Under at-least-once a kill -9 in the middle of a commit's flush can keep a
   * store's changes and lose another's; a change made by the punctuator is not replayed, so a
   * record could keep a timer whose entry is gone and never fire. Returns the last key read, or
   * null when the store has been read to its end.
   */
  String healTimers(String after, int n, SchedulerMetrics metrics) {
    int seen = 0;
    String last = null;
    try (KeyValueIterator<String, TaskRecord> it =
        after == null ? tasks.all() : tasks.range(after, null)) {
      while (it.hasNext() && seen < n) {
        KeyValue<String, TaskRecord> kv;
        try {
          kv = it.next();
        } catch (RuntimeException e) {
          metrics.count(
              SchedulerEvent.TIMER_HEAL_UNREADABLE); // a corrupt record: skipped, never a stall
          continue;
        }
        if (kv.key.equals(after)) {
          continue;
        }
        last = kv.key;
        seen++;
        if (kv.value != null && kv.value.hasTimer()) {
          Bytes key = indexKey(kv.key, kv.value);
          if (index.get(key) == null) {
            index.put(key, new byte[] {kv.value.timerKind().code});
            metrics.count(SchedulerEvent.TIMER_HEALED);
          }
        }
      }
    }
    return seen < n ? null : last;
  }

  /** Forgets a task: its record, its timer and its count. */
  void delete(String id, TaskRecord previous) {
    if (previous.hasTimer()) {
      index.delete(indexKey(id, previous));
    }
    count(previous.state(), -1);
    tasks.delete(id);
    load().moved(previous, null);
  }

  /**
   * The handlers with a non-empty queue, read from the index: one seek per handler, jumping from
   * each handler's queue to the next.
   */
  List<String> queuedHandlers() {
    List<String> handlers = new ArrayList<>();
    Bytes from = DueIndexKey.QUEUES_FIRST;
    while (true) {
      try (KeyValueIterator<Bytes, byte[]> it = index.range(from, DueIndexKey.QUEUES_LAST)) {
        if (!it.hasNext()) {
          return handlers;
        }
        String handler = DueIndexKey.queueHandler(it.next().key);
        handlers.add(handler);
        from = DueIndexKey.queueTo(handler);
      }
    }
  }

  /** The due-index key of {@code r}'s timer: a time key, or a queue key when QUEUED. */
  private static Bytes indexKey(String id, TaskRecord r) {
    return r.timerKind() == TimerKind.QUEUED
        ? DueIndexKey.queued(r.task().handler(), r.timerAt(), id)
        : DueIndexKey.of(r.timerAt(), id);
  }

  private void count(TaskState state, long delta) {
    if (state == null) {
      return;
    }
    Long now = counts.get(state.name());
    long next = (now == null ? 0 : now) + delta;
    counts.put(state.name(), Math.max(0, next));
  }
}
