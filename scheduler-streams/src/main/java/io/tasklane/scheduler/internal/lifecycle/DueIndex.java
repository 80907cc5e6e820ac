package io.tasklane.scheduler.internal.lifecycle;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The due-index store ({@link Stores#DUE_INDEX}) of one stream task: one entry per task with a
 * timer, a time key for {@link TimerKind#DUE}, {@link TimerKind#DEADLINE} and {@link
 * TimerKind#PURGE} ({@link DueIndexKey}; the queue keys an earlier version wrote for {@link
 * TimerKind#QUEUED} are moved to the search index, {@link FlowControlQueues}). The value is the
 * timer kind's byte. Used on the stream task's thread only (processors and punctuator); its writes
 * go through to RocksDB and the changelog at once, each just after the record it belongs to ({@link
 * TaskStore}, {@code ScheduleStore}). The stream task's {@link TaskMemory#nextDueAt} spares the
 * punctuator the store reads of the ticks at which nothing is due and the keys before it: every
 * time entry written here lowers it, every due scan moves it to the first entry not yet returned.
 */
public final class DueIndex {
  /** How far past a scan the next due entry is looked for; no entry in it: scanned again then. */
  static final long NEXT_DUE_HORIZON_MS = 10_000;

  private final KeyValueStore<Bytes, byte[]> store;
  private final Supplier<TaskMemory> memory;

  /**
   * @param memory the stream task's memory, looked up at each use (the processors' stores open it
   *     afresh)
   */
  DueIndex(KeyValueStore<Bytes, byte[]> store, Supplier<TaskMemory> memory) {
    this.store = store;
    this.memory = memory;
  }

  /** A time entry at {@code at} is written: the next scan must not skip it. */
  private void timeEntryAt(long at) {
    TaskMemory m = memory.get();
    if (at < m.nextDueAt) {
      m.nextDueAt = at;
    }
  }

  /**
   * An entry read by a due scan; decoding its kind may throw (a corrupt value). {@code inMemory}: a
   * deadline of {@link DeadlineTimers}, not in the store.
   */
  public record Entry(Bytes key, byte[] value, boolean inMemory) {
    public Entry(Bytes key, byte[] value) {
      this(key, value, false);
    }

    static Entry inMemory(long at, String id, TimerKind kind) {
      return new Entry(DueIndexKey.of(at, id), new byte[] {kind.code}, true);
    }

    String taskId() {
      return DueIndexKey.taskId(key);
    }

    long at() {
      return DueIndexKey.dueAt(key);
    }

    /** The timer kind, or null for an empty value. */
    TimerKind kind() {
      return value == null || value.length == 0 ? null : TimerKind.of(value[0]);
    }
  }

  /** Writes the entry of {@code r}'s timer ({@code r} has one). */
  public void put(String id, TaskRecord r) {
    timeEntryAt(r.timerAt());
    store.put(keyOf(id, r), new byte[] {r.timerKind().code});
  }

  /** Deletes the entry of {@code r}'s timer ({@code r} has one). */
  public void delete(String id, TaskRecord r) {
    store.put(keyOf(id, r), null);
  }

  /** True when the entry of {@code r}'s timer ({@code r} has one) is in the index. */
  public boolean has(String id, TaskRecord r) {
    return store.get(keyOf(id, r)) != null;
  }

  /** Writes a time entry of {@code kind} for {@code id} at {@code at} (a schedule's timer). */
  public void put(long at, String id, TimerKind kind) {
    timeEntryAt(at);
    store.put(DueIndexKey.of(at, id), new byte[] {kind.code});
  }

  /** Deletes the time entry of {@code id} at {@code at}. */
  public void delete(long at, String id) {
    store.put(DueIndexKey.of(at, id), null);
  }

  /** True when the time entry of {@code id} at {@code at} is in the index. */
  public boolean has(long at, String id) {
    return store.get(DueIndexKey.of(at, id)) != null;
  }

  /** The value of the entry {@code key}, or null when none. */
  byte[] get(Bytes key) {
    return store.get(key);
  }

  /** Deletes an entry read from the index (fired, stale or failed). */
  void remove(Bytes key) {
    store.put(key, null);
  }

  /**
   * Up to {@code bound} time entries due at or before {@code now}, in due order. Reads nothing
   * before {@link TaskMemory#nextDueAt}, neither at a tick before it nor, in the store, the keys
   * before it: the fired entries' deletions stay in RocksDB until a compaction drops them, and a
   * scan from the first key stepped over all of them at every tick. The caller takes every entry
   * returned out of the index before it scans again ({@link DuePunctuator} carries the ones it did
   * not fire yet), so a scan that found fewer than {@code bound} entries sets it to the first entry
   * after {@code now}, one that found {@code bound} to the instant of its last.
   */
  List<Entry> due(long now, int bound) {
    TaskMemory m = memory.get();
    if (now < m.nextDueAt) {
      return List.of();
    }
    List<Entry> due = new ArrayList<>();
    Bytes from =
        m.nextDueAt == Long.MIN_VALUE ? DueIndexKey.FIRST : DueIndexKey.of(m.nextDueAt, "");
    try (KeyValueIterator<Bytes, byte[]> it = store.range(from, DueIndexKey.upTo(now))) {
      while (it.hasNext() && due.size() < bound) {
        KeyValue<Bytes, byte[]> kv = it.next();
        due.add(new Entry(kv.key, kv.value));
      }
    }
    if (due.size() < bound) {
      m.nextDueAt = firstAfter(now);
    } else {
      m.nextDueAt = due.get(due.size() - 1).at();
    }
    return due;
  }

  /**
   * The due time of the first time entry after {@code now} within {@link #NEXT_DUE_HORIZON_MS}, or
   * the end of that horizon (which bounds the read when nothing is due soon).
   */
  private long firstAfter(long now) {
    long horizon = now + NEXT_DUE_HORIZON_MS;
    try (KeyValueIterator<Bytes, byte[]> it =
        store.range(DueIndexKey.of(now + 1, ""), DueIndexKey.upTo(horizon))) {
      return it.hasNext() ? DueIndexKey.dueAt(it.next().key) : horizon + 1;
    }
  }

  /**
   * Calls {@code entry} with every queue key an earlier version wrote ({@code 0xFF ‖ handler ‖ 0x00
   * ‖ dueAt ‖ id}, before queues moved to the search index) and its handler, in key order; the keys
   * are collected first, so {@code entry} may delete them.
   */
  void forEachLegacyQueueKey(java.util.function.BiConsumer<Bytes, String> entry) {
    List<Bytes> keys = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> it =
        store.range(DueIndexKey.QUEUES_FIRST, DueIndexKey.QUEUES_LAST)) {
      while (it.hasNext()) {
        keys.add(it.next().key);
      }
    }
    for (Bytes key : keys) {
      String handler = DueIndexKey.queueHandler(key);
      if (handler != null) {
        entry.accept(key, handler);
      } else {
        store.put(key, null);
      }
    }
  }

  /** The key of {@code r}'s timer (a time key: queued tasks are in the search index). */
  private static Bytes keyOf(String id, TaskRecord r) {
    return DueIndexKey.of(r.timerAt(), id);
  }
}
