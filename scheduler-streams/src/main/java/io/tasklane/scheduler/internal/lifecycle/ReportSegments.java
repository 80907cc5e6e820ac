package io.tasklane.scheduler.internal.lifecycle;

import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.internals.RocksDBWindowStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * Opens the RocksDB segment of each {@link ReportGrain} store that holds the current time, once per
 * stream task, at its first tick or record, before any figure is merged. A windowed store keeps a
 * RocksDB database per segment ({@link ReportGrain#segmentMs}) and per stream task, and Kafka
 * Streams creates one only when a write lands in it ({@code AbstractSegments
 * .getOrCreateSegmentIfLive}, from {@code RocksDBSegmentedBytesStore.put}; a read does not create
 * one), and the record cache defers that write to the commit's cache flush. Left alone, the first
 * report figures of a fresh state directory opened up to 18 databases (6 partitions × 3 stores) on
 * the stream thread in the first commit under load, holding the first second's dispatches for
 * hundreds of milliseconds (docs/performance.md, cold start).
 *
 * <p>The segment is opened by a delete of {@link #NO_HANDLER} at the segment's start, written to
 * the RocksDB window store beneath the record cache and the change log: the store holds nothing
 * more, no changelog record is written and no cached figure moves, so every report reads the same.
 * Kafka Streams' stream time of the store moves to the segment's start, no further than the first
 * figure of the segment moves it; only buckets already past their retention at that instant, which
 * a restarted scheduler showed until its first figure, are dropped at its first tick. A segment a
 * later day enters is opened by its first figures, as before (one database per stream task: a day
 * for minute buckets, 15 days for hour and day buckets). The store beneath is found through Kafka
 * Streams' internal {@code WrappedStateStore} chain; another store type is left alone. {@code
 * ReportSegmentsTest} checks this against the Kafka Streams version in use.
 */
final class ReportSegments {
  /** The key of the delete: a byte no UTF-8 string holds, so no handler's figures are touched. */
  static final Bytes NO_HANDLER = Bytes.wrap(new byte[] {(byte) 0xFF});

  private ReportSegments() {}

  /** Opens the segment holding {@code now} in each store; returns how many stores it reached. */
  static int open(Map<ReportGrain, WindowStore<String, byte[]>> stores, long now) {
    int opened = 0;
    for (Map.Entry<ReportGrain, WindowStore<String, byte[]>> e : stores.entrySet()) {
      RocksDBWindowStore rocks = rocksDb(e.getValue());
      if (rocks != null) {
        rocks.put(NO_HANDLER, null, e.getKey().segmentStart(now));
        opened++;
      }
    }
    return opened;
  }

  /** The RocksDB window store beneath the processor's view of {@code store}, or null. */
  static RocksDBWindowStore rocksDb(StateStore store) {
    StateStore s = store;
    while (!(s instanceof RocksDBWindowStore) && s instanceof WrappedStateStore<?, ?, ?> w) {
      s = w.wrapped();
    }
    return s instanceof RocksDBWindowStore r ? r : null;
  }
}
