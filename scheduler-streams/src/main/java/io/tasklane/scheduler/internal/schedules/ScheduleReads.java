package io.tasklane.scheduler.internal.schedules;

import io.tasklane.scheduler.internal.lifecycle.Stores;
import io.tasklane.scheduler.internal.lifecycle.TaskReads;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The query interface of the schedules: what the HTTP API reads of the schedules of one partition
 * (or of every local partition at once, over Kafka Streams' composite stores), with their fires
 * from the {@link FireLog}, never a store key or the log's encoding. Read-only, over interactive
 * queries; called on Micronaut's blocking executor.
 */
public final class ScheduleReads {
  private final TaskReads.StoreSource source;

  private ScheduleReads(TaskReads.StoreSource source) {
    this.source = source;
  }

  /** The reads over the stores {@code source} reaches. */
  public static ScheduleReads of(TaskReads.StoreSource source) {
    return new ScheduleReads(source);
  }

  /** Where schedule {@code name} lives: its partition and the instance that owns it now. */
  public static KeyQueryMetadata owner(KafkaStreams streams, String name) {
    return streams.queryMetadataForKey(Stores.SCHEDULES, name, Serdes.String().serializer());
  }

  /** The state of schedule {@code name}, or null when none. */
  public ScheduleState state(String name) {
    return this.<String, ScheduleState>store(Stores.SCHEDULES).get(name);
  }

  /** {@code s} with its newest {@code keep} fires from the log ({@link FireLog#withHistory}). */
  public ScheduleState withHistory(String name, ScheduleState s, int keep) {
    return FireLog.withHistory(this.<Bytes, byte[]>store(Stores.SCHEDULE_FIRES), name, s, keep);
  }

  /** {@code s} with its newest fire whose instant has passed ({@link FireLog#withLatest}). */
  public ScheduleState withLatest(String name, ScheduleState s, long now) {
    return FireLog.withLatest(this.<Bytes, byte[]>store(Stores.SCHEDULE_FIRES), name, s, now);
  }

  /**
   * The first {@code limit} schedules in name order that {@code keep} accepts, by name (one more
   * than asked, so that a caller sees whether more follow, when {@code limit} is that).
   */
  public TreeMap<String, ScheduleState> first(int limit, BiPredicate<String, ScheduleState> keep) {
    TreeMap<String, ScheduleState> page = new TreeMap<>();
    try (KeyValueIterator<String, ScheduleState> it =
        this.<String, ScheduleState>store(Stores.SCHEDULES).all()) {
      while (it.hasNext()) {
        KeyValue<String, ScheduleState> kv = it.next();
        if (kv.value == null || !keep.test(kv.key, kv.value)) {
          continue;
        }
        page.put(kv.key, kv.value);
        if (page.size() > limit) {
          page.pollLastEntry();
        }
      }
    }
    return page;
  }

  @SuppressWarnings("unchecked")
  private <K, V> ReadOnlyKeyValueStore<K, V> store(String name) {
    return (ReadOnlyKeyValueStore<K, V>) source.store(name);
  }
}
