package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The search index ({@link Stores#TASK_INDEX}) and the per-(state, handler) counts ({@link
 * StateCounts}) of one stream task, moved by {@link TaskStore} with every write of a record, in the
 * same processor call and so the same commit (under {@code exactly_once_v2} the same transaction).
 * One entry per task with an envelope and a state ({@link TaskIndexKey}). A transition costs one
 * delete and one put of a small key, written through to RocksDB and the changelog (the counts are
 * written once per commit: a count that changes many times within a commit interval leaves one
 * changelog record); its count moves only when its state or handler does. Used on the stream task's
 * thread only.
 */
public final class TaskIndex {
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
    move(id, TaskIndexKey.of(id, previous), next, true);
    counted(previous, next);
  }

  /**
   * Moves task {@code id}'s entry from {@code present} (the key the index holds for it, null when
   * none) to that of {@code next} (null: forgotten); with {@code putNow} false the new entry is not
   * written yet ({@link DeferredWrites}). Returns the key the index holds for the task afterwards.
   */
  Bytes move(String id, Bytes present, TaskRecord next, boolean putNow) {
    Bytes after = TaskIndexKey.of(id, next);
    if (present != null && !present.equals(after)) {
      store.put(present, null);
      present = null;
    }
    if (after != null && present == null && putNow) {
      store.put(after, TaskIndexKey.value(next));
      return after;
    }
    return present;
  }

  /** Moves the counts of a task from {@code previous}'s state and handler to {@code next}'s. */
  void counted(TaskRecord previous, TaskRecord next) {
    counts.moved(state(previous), handler(previous), state(next), handler(next));
  }

  /** Writes the counts changed since the last call (before each commit, {@link StateCounts}). */
  void flushCounts() {
    counts.flush();
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

  /** The handlers with an entry in {@code state}: one seek per handler, from group to group. */
  List<String> handlersIn(TaskState state) {
    return handlersIn(store, state);
  }

  /** The handlers with an entry in {@code state} in {@code store} (a search index). */
  static List<String> handlersIn(ReadOnlyKeyValueStore<Bytes, byte[]> store, TaskState state) {
    List<String> handlers = new ArrayList<>();
    byte[] name = state.name().getBytes(StandardCharsets.US_ASCII);
    byte[] end = Arrays.copyOf(name, name.length + 1);
    end[name.length] = 1;
    Bytes from = Bytes.wrap(Arrays.copyOf(name, name.length + 1));
    while (true) {
      try (KeyValueIterator<Bytes, byte[]> it = store.range(from, Bytes.wrap(end))) {
        if (!it.hasNext()) {
          return handlers;
        }
        byte[] key = it.next().key.get();
        int handlerEnd = indexOf(key, name.length + 1);
        if (handlerEnd < 0) {
          return handlers; // not an entry key; nothing valid follows in this state
        }
        String handler =
            new String(key, name.length + 1, handlerEnd - name.length - 1, StandardCharsets.UTF_8);
        handlers.add(handler);
        from = TaskIndexKey.after(TaskIndexKey.prefix(state, handler), Long.MAX_VALUE);
      }
    }
  }

  /**
   * Up to {@code max} keys of group ({@code state}, {@code handler}) from {@code updatedAt} {@code
   * from} on and at or before {@code until}, in order, into {@code keys}; returns the {@code
   * updatedAt} of the first entry after {@code until}, or {@link Long#MAX_VALUE} when none follows.
   */
  long upTo(TaskState state, String handler, long from, long until, int max, List<Bytes> keys) {
    byte[] prefix = TaskIndexKey.prefix(state, handler);
    try (KeyValueIterator<Bytes, byte[]> it =
        store.range(
            TaskIndexKey.at(prefix, Math.max(0, from)),
            TaskIndexKey.after(prefix, Long.MAX_VALUE))) {
      while (it.hasNext()) {
        Bytes key = it.next().key;
        long at = TaskIndexKey.updatedAt(key, prefix.length);
        if (at > until) {
          return at;
        }
        if (keys.size() >= max) {
          return at;
        }
        keys.add(key);
      }
    }
    return Long.MAX_VALUE;
  }

  /** The states a queued task can be in, each with queued groups of its own. */
  public static final List<TaskState> QUEUEABLE = List.of(TaskState.PENDING, TaskState.RETRYING);

  /**
   * Adds up to {@code max} keys of {@code handler}'s queue to {@code head} in queue order (the
   * order the tasks were queued, PENDING and RETRYING together): one range per queued group,
   * merged.
   */
  void readQueue(String handler, int max, java.util.Collection<Bytes> head) {
    List<List<Bytes>> ranges = new ArrayList<>();
    for (TaskState state : QUEUEABLE) {
      byte[] prefix = TaskIndexKey.prefix(state, handler, true);
      List<Bytes> keys = new ArrayList<>();
      try (KeyValueIterator<Bytes, byte[]> it =
          store.range(TaskIndexKey.at(prefix, 0), TaskIndexKey.after(prefix, Long.MAX_VALUE))) {
        while (it.hasNext() && keys.size() < max) {
          keys.add(it.next().key);
        }
      }
      ranges.add(keys);
    }
    merge(ranges.get(0), ranges.get(1), max, head);
  }

  /** The first {@code max} of two key lists in the order of their tails (updatedAt, then id). */
  private static void merge(
      List<Bytes> a, List<Bytes> b, int max, java.util.Collection<Bytes> out) {
    int i = 0;
    int j = 0;
    while (out.size() < max && (i < a.size() || j < b.size())) {
      if (j >= b.size() || (i < a.size() && tailCompare(a.get(i), b.get(j)) <= 0)) {
        out.add(a.get(i++));
      } else {
        out.add(b.get(j++));
      }
    }
  }

  /** The order of a handler's queue across its queued groups: by time, then id. */
  static final java.util.Comparator<Bytes> QUEUE_ORDER = TaskIndex::tailCompare;

  private static int tailCompare(Bytes x, Bytes y) {
    byte[] a = x.get();
    byte[] b = y.get();
    int pa = TaskIndexKey.prefixLength(x);
    int pb = TaskIndexKey.prefixLength(y);
    return Arrays.compareUnsigned(a, pa, a.length, b, pb, b.length);
  }

  /** The handlers with a queue: one seek per handler and queued group, from group to group. */
  List<String> queuedHandlers() {
    java.util.LinkedHashSet<String> handlers = new java.util.LinkedHashSet<>();
    for (TaskState state : QUEUEABLE) {
      handlers.addAll(queuedHandlersIn(store, state));
    }
    return new ArrayList<>(handlers);
  }

  /** The handlers with a queued group in {@code state} in {@code store} (a search index). */
  static List<String> queuedHandlersIn(
      ReadOnlyKeyValueStore<Bytes, byte[]> store, TaskState state) {
    List<String> handlers = new ArrayList<>();
    Bytes from = TaskIndexKey.queuedFirst(state);
    Bytes last = TaskIndexKey.queuedLast(state);
    while (true) {
      try (KeyValueIterator<Bytes, byte[]> it = store.range(from, last)) {
        if (!it.hasNext()) {
          return handlers;
        }
        String handler = TaskIndexKey.handler(it.next().key);
        handlers.add(handler);
        from = TaskIndexKey.after(TaskIndexKey.prefix(state, handler, true), Long.MAX_VALUE);
      }
    }
  }

  /** Calls {@code handler} with the handler of every queued entry. */
  public void forEachQueued(Consumer<String> handler) {
    forEachQueued(store, handler);
  }

  /** Calls {@code handler} with the handler of every queued entry of {@code store}. */
  public static void forEachQueued(
      ReadOnlyKeyValueStore<Bytes, byte[]> store, Consumer<String> handler) {
    for (TaskState state : QUEUEABLE) {
      try (KeyValueIterator<Bytes, byte[]> it =
          store.range(TaskIndexKey.queuedFirst(state), TaskIndexKey.queuedLast(state))) {
        while (it.hasNext()) {
          handler.accept(TaskIndexKey.handler(it.next().key));
        }
      }
    }
  }

  /** The value of entry {@code key}, or null when it is not in the index. */
  byte[] get(Bytes key) {
    return store.get(key);
  }

  /** Deletes an entry read from the index that no record matches (stale, or unreadable). */
  void remove(Bytes key) {
    store.put(key, null);
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
