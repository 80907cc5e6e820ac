package io.tasklane.scheduler.internal.batches;

import io.tasklane.core.BatchPart;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
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
}
