package io.tasklane.scheduler.internal;

import io.tasklane.core.TaskState;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The search index ({@link Stores#TASK_INDEX}) and the per-(state, handler) counts ({@link
 * StateCounts}) of one stream task, moved by {@link TaskStore} with every write of a record, in the
 * same processor call and so the same commit (under {@code exactly_once_v2} the same transaction).
 * One entry per task with an envelope and a state ({@link TaskIndexKey}). A transition costs one
 * delete and one put of a small key (a cached store: a task that changes several times within a
 * commit interval leaves one changelog record); its count moves only when its state or handler
 * does. Used on the stream task's thread only.
 */
final class TaskIndex {
  private final KeyValueStore<Bytes, byte[]> store;
  private final StateCounts counts;

  TaskIndex(KeyValueStore<Bytes, byte[]> store, StateCounts counts) {
    this.store = store;
    this.counts = counts;
  }

  /**
   * Task {@code id} moved from {@code previous} (null when new) to {@code next} (null when
   * forgotten): moves its entry and its counts.
   */
  void moved(String id, TaskRecord previous, TaskRecord next) {
    Bytes before = TaskIndexKey.of(id, previous);
    Bytes after = TaskIndexKey.of(id, next);
    if (before != null && !before.equals(after)) {
      store.put(before, null);
    }
    if (after != null && !after.equals(before)) {
      store.put(after, TaskIndexKey.value(next));
    }
    counts.moved(state(previous), handler(previous), state(next), handler(next));
  }

  /** Rewrites the counts once when they are of the earlier format ({@link StateCounts}). */
  void upgradeCounts() {
    counts.upgradeOnce();
  }

  /**
   * Writes {@code record}'s entry again when it is missing: a crash under at-least-once can keep a
   * record and lose its entry (see {@link TimerRepair}). Returns true when it was missing.
   */
  boolean reassert(String id, TaskRecord record) {
    Bytes key = TaskIndexKey.of(id, record);
    if (key == null || store.get(key) != null) {
      return false;
    }
    store.put(key, TaskIndexKey.value(record));
    return true;
  }

  private static TaskState state(TaskRecord r) {
    return r == null ? null : r.state();
  }

  private static String handler(TaskRecord r) {
    return r == null || r.task() == null ? null : r.task().handler();
  }
}
