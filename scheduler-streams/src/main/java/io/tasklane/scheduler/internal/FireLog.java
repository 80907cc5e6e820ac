package io.tasklane.scheduler.internal;

import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The finished fires of the schedules of one stream task ({@link Stores#SCHEDULE_FIRES}), kept out
 * of their {@link ScheduleState} so that a fire rewrites a small state and adds one small record,
 * instead of rewriting the whole history. A key is {@code name ‖ 0x00 ‖ fireAt (8 bytes big-endian)
 * ‖ fireId} (a schedule name never holds {@code 0x00}), so that one schedule's fires are contiguous
 * and oldest first; a value is the {@link FireRecord} as JSON. A schedule keeps its newest {@link
 * FireHistory#KEEP} finished fires: the log holds up to {@link #SLACK} more between two prunes,
 * which the reads leave out.
 *
 * <p>An instance wraps the processor's store and is used on its stream thread only; its writes go
 * to the store's cache and reach the changelog at the next commit, with the schedule store's. The
 * static reads also serve interactive queries (Micronaut's blocking executor).
 */
final class FireLog {
  /**
   * Finished fires beyond {@link FireHistory#KEEP} that a schedule's log may hold before a prune.
   */
  static final int SLACK = 16;

  private final KeyValueStore<Bytes, byte[]> store;

  FireLog(KeyValueStore<Bytes, byte[]> store) {
    this.store = store;
  }

  /**
   * Moves the finished fires of {@code s} into the log (pruning the schedule's log when it holds
   * {@link #SLACK} more than it keeps); returns {@code s} with its unfinished fires only, itself
   * when it has no finished one. A state of an older layout, with finished fires in its history,
   * loses them to the log at its next write the same way.
   */
  ScheduleState moveFinished(String name, ScheduleState s) {
    List<FireRecord> open = null;
    int logged = s.logged();
    for (int i = 0; i < s.fires().size(); i++) {
      FireRecord f = s.fires().get(i);
      if (!f.outcome().finished()) {
        if (open != null) {
          open.add(f);
        }
        continue;
      }
      if (open == null) {
        open = new ArrayList<>(s.fires().subList(0, i));
      }
      store.put(key(name, f.fireAt(), f.fireId()), WireCodec.encode(f));
      logged++;
    }
    if (open == null) {
      return s;
    }
    if (logged >= FireHistory.KEEP + SLACK) {
      logged = prune(name);
    }
    return s.withLog(open, logged);
  }

  /** Whether the log holds the finished fire {@code fireId} at {@code fireAt}. */
  boolean has(String name, long fireAt, String fireId) {
    return store.get(key(name, fireAt, fireId)) != null;
  }

  /**
   * Whether the finished fire {@code fireId} is among the schedule's newest {@link
   * FireHistory#KEEP}; compares keys only (a key ends with the fire id).
   */
  boolean hasRecent(String name, String fireId) {
    byte[] id = fireId.getBytes(StandardCharsets.UTF_8);
    int prefix = name.getBytes(StandardCharsets.UTF_8).length + 1 + Long.BYTES;
    int seen = 0;
    try (KeyValueIterator<Bytes, byte[]> it = store.reverseRange(from(name), to(name))) {
      while (it.hasNext() && seen < FireHistory.KEEP) {
        byte[] key = it.next().key.get();
        seen++;
        if (key.length == prefix + id.length
            && java.util.Arrays.equals(key, prefix, key.length, id, 0, id.length)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The finished fire {@code fireId} when it is among the schedule's newest {@link
   * FireHistory#KEEP} + {@link #SLACK} logged ones, or null (a retried DEAD task finishing again).
   */
  FireRecord find(String name, String fireId) {
    int seen = 0;
    try (KeyValueIterator<Bytes, byte[]> it = store.reverseRange(from(name), to(name))) {
      while (it.hasNext() && seen++ < FireHistory.KEEP + SLACK) {
        KeyValue<Bytes, byte[]> kv = it.next();
        if (kv.value != null) {
          FireRecord f = decode(kv.value);
          if (f.fireId().equals(fireId)) {
            return f;
          }
        }
      }
    }
    return null;
  }

  /** Writes a logged fire's record over its entry (a retried task changed its outcome). */
  void rewrite(String name, FireRecord f) {
    store.put(key(name, f.fireAt(), f.fireId()), WireCodec.encode(f));
  }

  /** Deletes all but the newest {@link FireHistory#KEEP} of the schedule; how many remain. */
  private int prune(String name) {
    List<Bytes> keys = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> it = store.range(from(name), to(name))) {
      while (it.hasNext()) {
        keys.add(it.next().key);
      }
    }
    int drop = keys.size() - FireHistory.KEEP;
    for (int i = 0; i < drop; i++) {
      store.put(keys.get(i), null);
    }
    return Math.min(keys.size(), FireHistory.KEEP);
  }

  /** The newest {@code n} finished fires of schedule {@code name} in {@code log}, oldest first. */
  static List<FireRecord> newest(ReadOnlyKeyValueStore<Bytes, byte[]> log, String name, int n) {
    List<FireRecord> out = new ArrayList<>(Math.min(n, FireHistory.KEEP));
    try (KeyValueIterator<Bytes, byte[]> it = log.reverseRange(from(name), to(name))) {
      while (it.hasNext() && out.size() < n) {
        KeyValue<Bytes, byte[]> kv = it.next();
        if (kv.value != null) {
          out.add(decode(kv.value));
        }
      }
    }
    java.util.Collections.reverse(out);
    return out;
  }

  /**
   * {@code s} with its whole history as the status read shows it: the newest {@code finished}
   * finished fires of the log and the state's own fires, oldest fire first (a finished fire before
   * an unfinished one of the same instant). A fire of the state replaces a logged one of its id (a
   * fire skipped while paused and made at the resume), as its record is written over when it
   * finishes.
   */
  static ScheduleState withHistory(
      ReadOnlyKeyValueStore<Bytes, byte[]> log, String name, ScheduleState s, int finished) {
    List<FireRecord> logged = newest(log, name, finished);
    if (logged.isEmpty()) {
      return s;
    }
    List<FireRecord> all = new ArrayList<>(logged.size() + s.fires().size());
    for (FireRecord f : logged) {
      if (FireHistory.find(s.fires(), f.fireId()) == null) {
        all.add(f);
      }
    }
    all.addAll(s.fires());
    all.sort(Comparator.comparingLong(FireRecord::fireAt));
    return s.withFires(all, s.waiting());
  }

  static Bytes key(String name, long fireAt, String fireId) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    byte[] id = fireId.getBytes(StandardCharsets.UTF_8);
    return Bytes.wrap(
        ByteBuffer.allocate(n.length + 1 + Long.BYTES + id.length)
            .put(n)
            .put((byte) 0)
            .putLong(fireAt)
            .put(id)
            .array());
  }

  /** The first key a schedule's fires can have: {@code name ‖ 0x00}. */
  static Bytes from(String name) {
    return bound(name, (byte) 0);
  }

  /** Above every key of the schedule's fires, below the next name's: {@code name ‖ 0x01}. */
  static Bytes to(String name) {
    return bound(name, (byte) 1);
  }

  private static Bytes bound(String name, byte last) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    byte[] b = java.util.Arrays.copyOf(n, n.length + 1);
    b[n.length] = last;
    return Bytes.wrap(b);
  }

  static FireRecord decode(byte[] bytes) {
    try {
      return WireCodec.mapper().readValue(bytes, FireRecord.class);
    } catch (IOException e) {
      throw new WireFormatException("corrupt schedule fire in store: " + e.getMessage(), e);
    }
  }
}
