package io.tasklane.scheduler.internal.batches;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Deletes what the batches of one stream task keep past the retention (docs/batches.md,
 * <i>Retention</i>): every batch that ended (sealed, every member terminal) and has not changed for
 * the retention, whole ({@code s/}, {@code c/}, {@code p/}, {@code m/} of its id), and every member
 * end that came before its part and is still waiting for it after the retention (a member whose
 * batch was deleted already, or whose part never came). Such an early end is indexed under {@code
 * e/<time>/<batch>/<task>} ({@link #earlyKey}) so that it is found without reading the members.
 * Each call reads at most {@link #SLICE} summaries (from where the last stopped) and {@link #SLICE}
 * early ends. Called by a wall-clock punctuation on the stream task's thread; a punctuation that
 * throws stops the thread, so an unreadable entry is skipped.
 */
final class BatchPurge {
  /** How many batch summaries, and how many early ends, one call reads at most. */
  static final int SLICE = 1_000;

  private final KeyValueStore<String, byte[]> store;

  /** The summary key the last call stopped at; null: the next one reads from the start. */
  private String purgedUpTo;

  BatchPurge(KeyValueStore<String, byte[]> store) {
    this.store = store;
  }

  /** The index key of a member end of {@code batch} that came at {@code at} before its part. */
  static String earlyKey(long at, String batch, String task) {
    return "e/" + String.format("%013d", Math.max(0, at)) + "/" + batch + "/" + task;
  }

  /** The member entry of an end in {@code state} that came at {@code at} before its part. */
  static byte[] early(byte early, byte state, long at) {
    return ByteBuffer.allocate(10).put(early).put(state).putLong(at).array();
  }

  /** When an early member entry came, or 0 for one written without its time. */
  static long earlyAt(byte[] entry) {
    return entry.length >= 10 ? ByteBuffer.wrap(entry, 2, 8).getLong() : 0;
  }

  void nextSlice(long now, long retentionMs, byte earlyMark) {
    long before = now - retentionMs;
    endedBatches(before);
    earlyEnds(before, earlyMark);
  }

  private void endedBatches(long before) {
    List<String> ended = new ArrayList<>();
    int seen = 0;
    String last = null;
    // "s0" follows every "s/<id>" key: '0' is the character after '/'
    try (KeyValueIterator<String, byte[]> it =
        store.range(purgedUpTo == null ? "s/" : purgedUpTo, "s0")) {
      while (it.hasNext() && seen < SLICE) {
        KeyValue<String, byte[]> kv = it.next();
        last = kv.key;
        seen++;
        BatchState s;
        try {
          s = BatchState.decode(kv.value);
        } catch (RuntimeException e) {
          continue;
        }
        if (s.completedAt != null && s.updatedAt < before && s.batch != null) {
          ended.add(s.batch);
        }
      }
    }
    purgedUpTo = seen < SLICE ? null : last;
    for (String batch : ended) {
      deletePrefix(store, "c/" + batch + "/");
      deletePrefix(store, "p/" + batch + "/");
      deletePrefix(store, "m/" + batch + "/");
      store.delete(BatchBook.stateKey(batch));
    }
  }

  /**
   * Early ends indexed before {@code before}: the member entry goes when it is still early and no
   * newer (an end written again later keeps it), the index key goes in any case.
   */
  private void earlyEnds(long before, byte earlyMark) {
    List<String> index = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it = store.range("e/", earlyKey(before, "", ""))) {
      while (it.hasNext() && index.size() < SLICE) {
        index.add(it.next().key);
      }
    }
    for (String key : index) {
      // e/<13 digits>/<batch>/<task>: a batch id has no '/'
      int batchEnd = key.indexOf('/', 16);
      if (batchEnd > 0) {
        String member = "m/" + key.substring(16, batchEnd) + "/" + key.substring(batchEnd + 1);
        byte[] entry = store.get(member);
        if (entry != null && entry[0] == earlyMark && earlyAt(entry) < before) {
          store.delete(member);
        }
      }
      store.delete(key);
    }
  }

  static void deletePrefix(KeyValueStore<String, byte[]> store, String prefix) {
    List<String> keys = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> it =
        store.prefixScan(prefix, Serdes.String().serializer())) {
      it.forEachRemaining(kv -> keys.add(kv.key));
    }
    keys.forEach(store::delete);
  }
}
