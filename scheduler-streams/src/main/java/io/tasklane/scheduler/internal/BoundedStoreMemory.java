package io.tasklane.scheduler.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Puts every RocksDB store of this process under one memory budget ({@code store-memory-mb}): one
 * LRU block cache of that size shared by all stores, the memtables counted against it (a {@link
 * WriteBufferManager} holding them to half of it), index and filter blocks cached in it too.
 * Without it Kafka Streams gives each store of each partition its own 50 MiB cache and up to three
 * 16 MiB memtables, so the process's memory grows with partitions × stores under a write load.
 * Kafka Streams creates one instance per store and calls {@link #setConfig} on the stream thread
 * that opens the store. The shared cache and write buffer manager belong to one application id and
 * budget (two schedulers in one JVM, as in tests, each get their own) and live as long as the JVM.
 */
public final class BoundedStoreMemory implements RocksDBConfigSetter {
  /** The Streams config key of the budget in bytes (a Long), set from {@code store-memory-mb}. */
  public static final String BYTES_CONFIG = "tasklane.store.memory.bytes";

  private static final Map<String, Budget> BUDGETS = new ConcurrentHashMap<>();

  private record Budget(Cache cache, WriteBufferManager writeBuffers) {
    static Budget of(long bytes) {
      Cache cache = new LRUCache(bytes, -1, false, 0.1);
      return new Budget(cache, new WriteBufferManager(bytes / 2, cache));
    }
  }

  @Override
  public void setConfig(String storeName, Options options, Map<String, Object> configs) {
    Object bytes = configs.get(BYTES_CONFIG);
    long budget = bytes instanceof Number n ? n.longValue() : 256L << 20;
    BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
    String app = String.valueOf(configs.get(StreamsConfig.APPLICATION_ID_CONFIG));
    Budget shared = BUDGETS.computeIfAbsent(app + "/" + budget, k -> Budget.of(budget));
    table.setBlockCache(shared.cache());
    options.setWriteBufferManager(shared.writeBuffers());
    table.setCacheIndexAndFilterBlocks(true);
    table.setCacheIndexAndFilterBlocksWithHighPriority(true);
    table.setPinTopLevelIndexAndFilter(true);
    options.setTableFormatConfig(table);
  }

  @Override
  public void close(String storeName, Options options) {
    // the cache and the write buffer manager are shared by every store: never closed here
  }
}
