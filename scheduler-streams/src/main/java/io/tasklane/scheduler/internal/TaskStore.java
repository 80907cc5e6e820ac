package io.tasklane.scheduler.internal;

import io.tasklane.core.TaskState;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The three stores of one stream task behind one door: writing a record also moves its due-index
 * entry and its state count, so the index and the counts never drift from the records.
 */
final class TaskStore {
  private final KeyValueStore<String, TaskRecord> tasks;
  private final KeyValueStore<Bytes, byte[]> index;
  private final KeyValueStore<String, Long> counts;

  TaskStore(ProcessingContext context) {
    this.tasks = context.getStateStore(Stores.TASKS);
    this.index = context.getStateStore(Stores.DUE_INDEX);
    this.counts = context.getStateStore(Stores.STATE_COUNTS);
  }

  TaskRecord get(String id) {
    return tasks.get(id);
  }

  KeyValueStore<Bytes, byte[]> index() {
    return index;
  }

  /** Stores {@code next} (replacing {@code previous}, null when new) with its timer and count. */
  void put(String id, TaskRecord previous, TaskRecord next) {
    if (previous != null
        && previous.hasTimer()
        && (previous.timerAt() != next.timerAt() || previous.timerKind() != next.timerKind())) {
      index.delete(DueIndexKey.of(previous.timerAt(), id));
    }
    if (next.hasTimer()) {
      index.put(DueIndexKey.of(next.timerAt(), id), new byte[] {next.timerKind().code});
    }
    TaskState before = previous == null ? null : previous.state();
    if (before != next.state()) {
      count(before, -1);
      count(next.state(), 1);
    }
    tasks.put(id, next);
  }

  /**
   * Writes {@code record}'s due-index entry again. Under at-least-once a crash can restore the task
   * record without the index entry written with it; the replayed input then finds the record
   * "already done", so every path that ignores a repeat calls this to heal the index.
   */
  void reassertTimer(String id, TaskRecord record) {
    if (record.hasTimer()) {
      index.put(DueIndexKey.of(record.timerAt(), id), new byte[] {record.timerKind().code});
    }
  }

  /** Forgets a task: its record, its timer and its count. */
  void delete(String id, TaskRecord previous) {
    if (previous.hasTimer()) {
      index.delete(DueIndexKey.of(previous.timerAt(), id));
    }
    count(previous.state(), -1);
    tasks.delete(id);
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
