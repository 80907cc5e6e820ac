package io.tasklane.scheduler.internal.lifecycle;

import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The bucket sizes of the reports, each a windowed store of its own ({@code handler} → {@link
 * ReportBucket} bytes at the bucket's start, UTC): minute buckets are kept 2 days, hour and day
 * buckets 30 days. A report query may span at most {@link #maxSpan} (about 1,500 points). Each
 * stream task's store keeps its buckets in RocksDB segments of {@link #segmentMs} (Kafka Streams'
 * default, half the retention: a day for minute buckets, 15 days for hour and day buckets), each a
 * RocksDB database of its own, opened ahead of the first figures ({@link ReportSegments}).
 */
public enum ReportGrain {
  MINUTE("tasklane-reports-minute", Duration.ofMinutes(1), Duration.ofDays(2), Duration.ofDays(1)),
  HOUR("tasklane-reports-hour", Duration.ofHours(1), Duration.ofDays(30), Duration.ofDays(30)),
  DAY("tasklane-reports-day", Duration.ofDays(1), Duration.ofDays(30), Duration.ofDays(30));

  public final String store;
  public final long sizeMs;
  final Duration retention;
  public final Duration maxSpan;

  /**
   * The time one RocksDB segment of the store covers, from a multiple of it since the epoch: what
   * Kafka Streams derives from the retention ({@code Stores.persistentWindowStore}: half of it, at
   * least a minute).
   */
  final long segmentMs;

  ReportGrain(String store, Duration size, Duration retention, Duration maxSpan) {
    this.store = store;
    this.sizeMs = size.toMillis();
    this.retention = retention;
    this.maxSpan = maxSpan;
    this.segmentMs = Math.max(retention.toMillis() / 2, 60_000L);
  }

  /** The start of the bucket holding {@code at}. */
  public long start(long at) {
    return at - Math.floorMod(at, sizeMs);
  }

  /** The start of the RocksDB segment holding {@code at} (its directory's suffix). */
  long segmentStart(long at) {
    return at - Math.floorMod(at, segmentMs);
  }

  /** The query parameter's spelling: minute, hour or day. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  public StoreBuilder<WindowStore<String, byte[]>> storeBuilder() {
    return org.apache.kafka.streams.state.Stores.windowStoreBuilder(
            org.apache.kafka.streams.state.Stores.persistentWindowStore(
                store, retention, Duration.ofMillis(sizeMs), false),
            Serdes.String(),
            Serdes.ByteArray())
        .withCachingEnabled();
  }
}
