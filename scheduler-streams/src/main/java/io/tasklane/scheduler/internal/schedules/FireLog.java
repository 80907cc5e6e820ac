package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.scheduler.internal.lifecycle.Stores;
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
 * The fires of the schedules of one stream task ({@link Stores#SCHEDULE_FIRES}) that no overlap
 * policy needs to see: the finished ones, and the running ones of a schedule that lets fires
 * overlap ({@code ALLOW}, the default) or is deleted. They are kept out of their {@link
 * ScheduleState} so that a fire rewrites a small state and one small record, however many fires run
 * or have run, instead of rewriting the whole history. A key is {@code name ‖ 0x00 ‖ fireAt (8
 * bytes big-endian) ‖ fireId} (a schedule name never holds {@code 0x00}), so that one schedule's
 * fires are contiguous and oldest first; a value is the {@link FireRecord} as JSON. A running
 * fire's record is written over when its tasks finish. A schedule keeps its newest {@link
 * FireHistory#KEEP} finished fires and its running ones up to {@link FireHistory#MAX} fires in all
 * (beyond that the oldest go, and their late results are no longer tracked); the log is pruned once
 * every {@link #SLACK} fires moved in, and the reads leave the surplus out.
 *
 * <p>An instance wraps the processor's store and is used on its stream thread only; its writes go
 * through to RocksDB and the changelog at once, like the schedule store's ({@link Stores}). The
 * static reads also serve interactive queries (Micronaut's blocking executor).
 */
public final class FireLog {
  /** Fires moved into a schedule's log between two prunes. */
  static final int SLACK = 16;

  private final KeyValueStore<Bytes, byte[]> store;

  FireLog(KeyValueStore<Bytes, byte[]> store) {
    this.store = store;
  }

  /**
   * Moves the fires of {@code s} that no overlap policy needs ({@link #detached}) into the log,
   * pruning the schedule's log once every {@link #SLACK} fires moved in; returns {@code s} with the
   * others only, itself when none moved. A state of an older layout, with such fires in its
   * history, loses them to the log at its next write the same way.
   */
  ScheduleState moveDetached(String name, ScheduleState s) {
    List<FireRecord> kept = null;
    int logged = s.logged();
    for (int i = 0; i < s.fires().size(); i++) {
      FireRecord f = s.fires().get(i);
      if (!detached(s, f)) {
        if (kept != null) {
          kept.add(f);
        }
        continue;
      }
      if (kept == null) {
        kept = new ArrayList<>(s.fires().subList(0, i));
      }
      store.put(FireLogCodec.key(name, f.fireAt(), f.fireId()), FireLogCodec.encode(f));
      logged++;
    }
    if (kept == null) {
      return s;
    }
    if (logged >= FireHistory.KEEP + SLACK && pruneDue(s.logged(), logged)) {
      logged = prune(name);
    }
    return s.withLog(kept, logged);
  }

  /**
   * Whether fire {@code f} of {@code s} lives in the log: finished, or running while no overlap
   * policy watches the schedule's running fires ({@code ALLOW}, or the schedule is deleted). A
   * waiting fire, and a running fire of {@code SKIP_IF_RUNNING}, {@code QUEUE} or {@code REPLACE},
   * stays in the state.
   */
  static boolean detached(ScheduleState s, FireRecord f) {
    if (f.outcome().finished()) {
      return true;
    }
    return f.outcome() == FireRecord.Outcome.RUNNING
        && (s.deleted()
            || s.definition() == null
            || s.definition().overlap() == ScheduleDefinition.Overlap.ALLOW);
  }

  /** Whether the count passed a multiple of {@link #SLACK} above {@link FireHistory#KEEP}. */
  private static boolean pruneDue(int before, int after) {
    return Math.floorDiv(after - FireHistory.KEEP, SLACK)
        > Math.floorDiv(before - FireHistory.KEEP, SLACK);
  }

  /** The logged fire {@code fireId} at {@code fireAt}, or null. */
  FireRecord get(String name, long fireAt, String fireId) {
    byte[] v = store.get(FireLogCodec.key(name, fireAt, fireId));
    return v == null ? null : FireLogCodec.decode(v);
  }

  /** Whether the log holds the fire {@code fireId} at {@code fireAt}. */
  boolean has(String name, long fireAt, String fireId) {
    return store.get(FireLogCodec.key(name, fireAt, fireId)) != null;
  }

  /**
   * Whether the fire {@code fireId} is among the schedule's newest {@link FireHistory#KEEP} logged
   * ones; compares keys only.
   */
  boolean hasRecent(String name, String fireId) {
    return newestWithId(name, fireId, FireHistory.KEEP) != null;
  }

  /**
   * The logged fire {@code fireId} among the schedule's newest {@link FireHistory#MAX} + {@link
   * #SLACK} entries, or null; compares keys first and decodes the match only. For a notice that
   * does not carry the fire's instant.
   */
  FireRecord find(String name, String fireId) {
    byte[] v = newestWithId(name, fireId, FireHistory.MAX + SLACK);
    return v == null ? null : FireLogCodec.decode(v);
  }

  /**
   * The value of the entry for {@code fireId} among the schedule's newest {@code limit}, or null; a
   * key ends with the fire id, so no other entry is decoded.
   */
  private byte[] newestWithId(String name, String fireId, int limit) {
    byte[] id = fireId.getBytes(StandardCharsets.UTF_8);
    int prefix = name.getBytes(StandardCharsets.UTF_8).length + 1 + Long.BYTES;
    int seen = 0;
    try (KeyValueIterator<Bytes, byte[]> it =
        store.reverseRange(FireLogCodec.from(name), FireLogCodec.to(name))) {
      while (it.hasNext() && seen++ < limit) {
        KeyValue<Bytes, byte[]> kv = it.next();
        byte[] key = kv.key.get();
        if (kv.value != null
            && key.length == prefix + id.length
            && java.util.Arrays.equals(key, prefix, key.length, id, 0, id.length)) {
          return kv.value;
        }
      }
    }
    return null;
  }

  /**
   * Writes a logged fire's record over its entry (one of its tasks finished: a running fire's, or a
   * retried DEAD one's).
   */
  void rewrite(String name, FireRecord f) {
    store.put(FireLogCodec.key(name, f.fireAt(), f.fireId()), FireLogCodec.encode(f));
  }

  /** Deletes every logged fire of the schedule (a deleted schedule is purged). */
  void deleteAll(String name) {
    List<Bytes> keys = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> it =
        store.range(FireLogCodec.from(name), FireLogCodec.to(name))) {
      while (it.hasNext()) {
        keys.add(it.next().key);
      }
    }
    for (Bytes key : keys) {
      store.put(key, null);
    }
  }

  /**
   * Deletes the schedule's oldest finished fires beyond the newest {@link FireHistory#KEEP}, then
   * the oldest fires beyond {@link FireHistory#MAX}; how many remain.
   */
  private int prune(String name) {
    List<KeyValue<Bytes, Boolean>> all = new ArrayList<>();
    int finished = 0;
    try (KeyValueIterator<Bytes, byte[]> it =
        store.range(FireLogCodec.from(name), FireLogCodec.to(name))) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        boolean done = kv.value == null || FireLogCodec.finished(kv.value);
        finished += done ? 1 : 0;
        all.add(KeyValue.pair(kv.key, done));
      }
    }
    List<Bytes> kept = new ArrayList<>(all.size());
    for (KeyValue<Bytes, Boolean> e : all) {
      if (e.value && finished > FireHistory.KEEP) {
        finished--;
        store.put(e.key, null);
      } else {
        kept.add(e.key);
      }
    }
    for (int i = 0; i < kept.size() - FireHistory.MAX; i++) {
      store.put(kept.get(i), null);
    }
    return Math.min(kept.size(), FireHistory.MAX);
  }

  /**
   * The schedule's newest logged fires, oldest first: every one back to its {@code finished}-th
   * newest finished fire (so the running fires among them are all there), at most {@link
   * FireHistory#MAX} + {@link #SLACK}.
   */
  static List<FireRecord> newest(
      ReadOnlyKeyValueStore<Bytes, byte[]> log, String name, int finished) {
    List<FireRecord> out = new ArrayList<>(Math.min(finished, FireHistory.KEEP));
    int done = 0;
    try (KeyValueIterator<Bytes, byte[]> it =
        log.reverseRange(FireLogCodec.from(name), FireLogCodec.to(name))) {
      while (it.hasNext() && done < finished && out.size() < FireHistory.MAX + SLACK) {
        KeyValue<Bytes, byte[]> kv = it.next();
        if (kv.value != null) {
          FireRecord f = FireLogCodec.decode(kv.value);
          out.add(f);
          done += f.outcome().finished() ? 1 : 0;
        }
      }
    }
    java.util.Collections.reverse(out);
    return out;
  }

  /**
   * {@code s} with, besides its own fires, the newest logged fire whose instant is not after {@code
   * now} (a fire made ahead of its instant is left out): what the schedule list needs for its last
   * fire.
   */
  public static ScheduleState withLatest(
      ReadOnlyKeyValueStore<Bytes, byte[]> log, String name, ScheduleState s, long now) {
    FireRecord latest = null;
    try (KeyValueIterator<Bytes, byte[]> it =
        log.reverseRange(FireLogCodec.from(name), FireLogCodec.key(name, now + 1, ""))) {
      while (it.hasNext() && latest == null) {
        byte[] v = it.next().value;
        latest = v == null ? null : FireLogCodec.decode(v);
      }
    }
    if (latest == null || FireHistory.find(s.fires(), latest.fireId()) != null) {
      return s;
    }
    List<FireRecord> all = new ArrayList<>(s.fires().size() + 1);
    all.add(latest);
    all.addAll(s.fires());
    all.sort(Comparator.comparingLong(FireRecord::fireAt));
    return s.withFires(all, s.waiting());
  }

  /**
   * {@code s} with its whole history as the status read shows it: the log's newest {@code finished}
   * finished fires with the running ones among and after them ({@link #newest}) and the state's own
   * fires, oldest fire first (a finished fire before an unfinished one of the same instant). A fire
   * of the state replaces a logged one of its id (a fire skipped while paused and made at the
   * resume), as its record is written over when it finishes.
   */
  public static ScheduleState withHistory(
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
}
