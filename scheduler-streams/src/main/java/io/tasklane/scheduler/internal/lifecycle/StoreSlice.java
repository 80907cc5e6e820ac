package io.tasklane.scheduler.internal.lifecycle;

import java.util.function.BiConsumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Reads a store keyed by strings a slice at a time, so that a pass over a large store (the timer
 * repair of task records and of schedules after a restart) runs over many ticks while the stream
 * thread goes on processing. Used on the stream task's thread only.
 */
public final class StoreSlice {
  private StoreSlice() {}

  /**
   * Hands up to {@code n} entries after {@code after} (null: from the first) to {@code each}, in
   * key order, stopping early at {@code deadline} ({@link System#nanoTime}; at least one entry is
   * read). An entry whose value cannot be decoded is counted {@code timer.heal-unreadable} and
   * skipped, never a stall. Returns the last key read, or null when the store has been read to its
   * end.
   */
  public static <V> String read(
      KeyValueStore<String, V> store,
      String after,
      int n,
      long deadline,
      SchedulerMetrics metrics,
      BiConsumer<String, V> each) {
    int seen = 0;
    String last = null;
    try (KeyValueIterator<String, V> it = after == null ? store.all() : store.range(after, null)) {
      while (it.hasNext() && seen < n && (seen == 0 || System.nanoTime() < deadline)) {
        KeyValue<String, V> kv;
        try {
          kv = it.next();
        } catch (RuntimeException e) {
          metrics.count(SchedulerEvent.TIMER_HEAL_UNREADABLE);
          continue;
        }
        if (kv.key.equals(after)) {
          continue;
        }
        last = kv.key;
        seen++;
        each.accept(kv.key, kv.value);
      }
      return it.hasNext() ? last : null;
    }
  }
}
