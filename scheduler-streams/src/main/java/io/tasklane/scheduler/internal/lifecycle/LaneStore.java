package io.tasklane.scheduler.internal.lifecycle;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The lanes store ({@link Stores#LANES}) of one stream task, in {@link Lane} terms: heads ({@link
 * LaneHead}) and waiting entries. Its writes go through to RocksDB and the changelog in the order
 * they are made (the store is not cached). Used on the stream task's thread only, by {@link Lanes}
 * and {@link LaneRepair}; {@link #forEach} reads any lanes store (the API's interactive queries).
 */
final class LaneStore {
  private static final byte[] EMPTY = new byte[0];

  private final KeyValueStore<Bytes, byte[]> store;

  LaneStore(KeyValueStore<Bytes, byte[]> store) {
    this.store = store;
  }

  /** The head of {@code lane}, or null when the lane holds nothing and nothing waits in it. */
  LaneHead head(Lane lane) {
    byte[] v = store.get(lane.headKey());
    return v == null ? null : LaneHead.decode(v);
  }

  /** Writes {@code head}, or deletes it when the lane holds nothing and nothing waits in it. */
  void write(Lane lane, LaneHead head) {
    if (head.isEmpty()) {
      store.delete(lane.headKey());
    } else {
      store.put(lane.headKey(), head.encode());
    }
  }

  boolean hasWaiting(Bytes key) {
    return store.get(key) != null;
  }

  void putWaiting(Bytes key) {
    store.put(key, EMPTY);
  }

  void deleteWaiting(Bytes key) {
    store.delete(key);
  }

  /** Deletes waiting entry {@code key} of {@code lane} and counts one task less waiting in it. */
  void dropWaiting(Lane lane, Bytes key) {
    deleteWaiting(key);
    LaneHead head = head(lane);
    if (head != null && head.waiting > 0) {
      head.waiting--;
      write(lane, head);
    }
  }

  /**
   * The first waiting key of {@code lane} at place {@code from} or later (the earliest), or null
   * when none. Starting at the place released last, a lane with a long queue reads past one deleted
   * entry, not past every one released before (RocksDB keeps their deletions until a compaction).
   */
  Bytes firstWaiting(Lane lane, long from) {
    try (KeyValueIterator<Bytes, byte[]> it =
        store.range(lane.waitKey(from, ""), lane.waitLast())) {
      return it.hasNext() ? it.next().key : null;
    }
  }

  /** A lane's waiting entries counted: how many, and the place after the last one. */
  record Count(int waiting, long nextSeq) {}

  /** Counts {@code lane}'s waiting entries (a read of its whole range: for repairs only). */
  Count count(Lane lane) {
    int n = 0;
    long next = 0;
    try (KeyValueIterator<Bytes, byte[]> it = store.range(lane.waitFirst(), lane.waitLast())) {
      while (it.hasNext()) {
        next = lane.seqOf(it.next().key) + 1;
        n++;
      }
    }
    return new Count(n, next);
  }

  /** Every head of the store with its lane. */
  List<KeyValue<Lane, LaneHead>> heads() {
    List<KeyValue<Lane, LaneHead>> out = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> it = store.range(Lane.HEADS_FIRST, Lane.HEADS_LAST)) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        out.add(KeyValue.pair(Lane.ofHead(kv.key), LaneHead.decode(kv.value)));
      }
    }
    return out;
  }

  private static Bytes firstWaiting(ReadOnlyKeyValueStore<Bytes, byte[]> store, Lane lane) {
    try (KeyValueIterator<Bytes, byte[]> it = store.range(lane.waitFirst(), lane.waitLast())) {
      return it.hasNext() ? it.next().key : null;
    }
  }

  /** What one lane holds now, for the API ({@link TaskReads}). */
  record View(Lane lane, List<String> holders, int waiting, String firstWaiting) {}

  /**
   * Every lane of {@code handler} (null: of every handler) in {@code store} (any lanes store,
   * read-only), in key order, to {@code action}; stops when it returns false.
   */
  static void forEach(
      ReadOnlyKeyValueStore<Bytes, byte[]> store, String handler, Predicate<View> action) {
    try (KeyValueIterator<Bytes, byte[]> it = store.range(Lane.HEADS_FIRST, Lane.HEADS_LAST)) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        Lane lane = Lane.ofHead(kv.key);
        if (handler != null && !lane.handler().equals(handler)) {
          continue;
        }
        LaneHead head = LaneHead.decode(kv.value);
        Bytes first = head.waiting > 0 ? firstWaiting(store, lane) : null;
        View v =
            new View(
                lane,
                List.copyOf(head.holders),
                head.waiting,
                first == null ? null : lane.idOf(first));
        if (!action.test(v)) {
          return;
        }
      }
    }
  }
}
