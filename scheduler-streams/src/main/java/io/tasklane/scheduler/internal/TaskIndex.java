package io.tasklane.scheduler.internal;

import io.tasklane.core.TaskState;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.BiConsumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The search index ({@link Stores#TASK_INDEX}) and the per-(state, handler) counts ({@link
 * StateCounts}) of one stream task, moved by {@link TaskStore} with every write of a record, in the
 * same processor call and so the same commit (under {@code exactly_once_v2} the same transaction).
 * One entry per task with an envelope and a state ({@link TaskIndexKey}). A transition costs one
 * delete and one put of a small key, written through to RocksDB and the changelog (the counts are
 * cached: a count that changes many times within a commit interval leaves one changelog record);
 * its count moves only when its state or handler does. Used on the stream task's thread only.
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

  /**
   * Hands every entry of a task in {@code state}, of any handler, to {@code entry} (task id, key),
   * in key order: one range over that state's entries only, however many tasks other states hold.
   * An entry a crash left behind for an older state or time may be among them; callers check it
   * against the record ({@code TaskIndexKey.of(id, record)}).
   */
  void forEachIn(TaskState state, BiConsumer<String, Bytes> entry) {
    byte[] name = state.name().getBytes(StandardCharsets.US_ASCII);
    byte[] from = Arrays.copyOf(name, name.length + 1); // state ‖ 0x00: before every handler
    byte[] to = Arrays.copyOf(name, name.length + 1);
    to[name.length] = 1; // state ‖ 0x01: after every key of the state (a key goes on past 0x00)
    try (KeyValueIterator<Bytes, byte[]> it = store.range(Bytes.wrap(from), Bytes.wrap(to))) {
      while (it.hasNext()) {
        Bytes key = it.next().key;
        int handlerEnd = indexOf(key.get(), name.length + 1);
        if (handlerEnd > 0) {
          entry.accept(TaskIndexKey.taskId(key, handlerEnd + 1), key);
        }
      }
    }
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

  /** The index of the first 0x00 at or after {@code from}, or -1. */
  private static int indexOf(byte[] key, int from) {
    for (int i = from; i < key.length; i++) {
      if (key[i] == 0) {
        return i;
      }
    }
    return -1;
  }

  private static TaskState state(TaskRecord r) {
    return r == null ? null : r.state();
  }

  private static String handler(TaskRecord r) {
    return r == null || r.task() == null ? null : r.task().handler();
  }
}
