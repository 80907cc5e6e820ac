package io.tasklane.scheduler.internal.batches;

import io.tasklane.core.BatchPart;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The query interface of the batches: where a batch lives and its {@link BatchState}, over
 * interactive queries, never a store key. Read-only; called on Micronaut's blocking executor.
 */
public final class BatchReads {
  private BatchReads() {}

  /** Where batch {@code batch} lives: its partition and the instance that owns it now. */
  public static KeyQueryMetadata owner(KafkaStreams streams, String batch) {
    return streams.queryMetadataForKey(
        Stores.BATCHES, BatchPart.key(batch), Serdes.String().serializer());
  }

  /**
   * The state of batch {@code batch} in partition {@code partition} of this instance, or null when
   * none.
   */
  public static BatchState state(KafkaStreams streams, int partition, String batch) {
    ReadOnlyKeyValueStore<String, byte[]> store =
        streams.store(
            StoreQueryParameters.fromNameAndType(
                    Stores.BATCHES, QueryableStoreTypes.<String, byte[]>keyValueStore())
                .withPartition(partition));
    byte[] bytes = store.get(BatchBook.stateKey(batch));
    return bytes == null ? null : BatchState.decode(bytes);
  }

  /**
   * The first {@code limit} batches of partition {@code partition} of this instance in id order
   * whose id follows {@code after} (null: from the first) and that {@code keep} accepts; a summary
   * that cannot be read is skipped. Reads the summaries only ({@code s/<id>}), never members.
   */
  public static List<BatchState> page(
      KafkaStreams streams, int partition, String after, int limit, Predicate<BatchState> keep) {
    ReadOnlyKeyValueStore<String, byte[]> store =
        streams.store(
            StoreQueryParameters.fromNameAndType(
                    Stores.BATCHES, QueryableStoreTypes.<String, byte[]>keyValueStore())
                .withPartition(partition));
    List<BatchState> out = new ArrayList<>();
    String from = after == null ? BatchBook.stateKey("") : BatchBook.stateKey(after);
    // "s0" follows every "s/<id>" key: '0' is the character after '/'
    try (KeyValueIterator<String, byte[]> it = store.range(from, "s0")) {
      while (it.hasNext() && out.size() < limit) {
        KeyValue<String, byte[]> kv = it.next();
        if (after != null && kv.key.equals(from)) {
          continue;
        }
        BatchState s;
        try {
          s = BatchState.decode(kv.value);
        } catch (RuntimeException e) {
          continue; // an unreadable summary is left out of a listing, as the purge skips it
        }
        if (keep.test(s)) {
          out.add(s);
        }
      }
    }
    return out;
  }
}
