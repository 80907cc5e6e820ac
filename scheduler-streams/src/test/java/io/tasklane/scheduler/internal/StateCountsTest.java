package io.tasklane.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.TaskState;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The counts are read from the store once per stream task start and then from memory; every move
 * still writes the store, so a new start (a fresh memory) continues from what the store holds.
 */
class StateCountsTest {
  KeyValueStore<String, Long> store;
  final AtomicReference<Map<String, Long>> memory = new AtomicReference<>(new HashMap<>());

  @BeforeEach
  void open() {
    store =
        org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
                org.apache.kafka.streams.state.Stores.inMemoryKeyValueStore("counts"),
                Serdes.String(),
                Serdes.Long())
            .withLoggingDisabled()
            .build();
    MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
    store.init(context.getStateStoreContext(), store);
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void countsContinueFromTheStoreAfterAFreshStartAndEveryMoveIsWritten() {
    store.put(StateCounts.key(TaskState.PENDING, null), 5L);
    store.put(StateCounts.key(TaskState.PENDING, "mail"), 5L);
    StateCounts counts = new StateCounts(store, memory::get);

    counts.moved(TaskState.PENDING, "mail", TaskState.DISPATCHED, "mail");
    counts.moved(TaskState.PENDING, "mail", TaskState.DISPATCHED, "mail");
    assertThat(store.get(StateCounts.key(TaskState.PENDING, "mail"))).isEqualTo(3L);
    assertThat(store.get(StateCounts.key(TaskState.DISPATCHED, "mail"))).isEqualTo(2L);
    assertThat(store.get(StateCounts.key(TaskState.PENDING, null))).isEqualTo(3L);
    assertThat(memory.get()).containsEntry(StateCounts.key(TaskState.PENDING, "mail"), 3L);

    // the stream task starts afresh: its memory is new, the counts go on from the store
    memory.set(new HashMap<>());
    counts.moved(TaskState.DISPATCHED, "mail", TaskState.SUCCEEDED, "mail");
    assertThat(store.get(StateCounts.key(TaskState.DISPATCHED, "mail"))).isEqualTo(1L);
    assertThat(store.get(StateCounts.key(TaskState.SUCCEEDED, "mail"))).isEqualTo(1L);
    assertThat(store.get(StateCounts.key(TaskState.PENDING, null))).isEqualTo(3L);

    // a count never goes below zero
    counts.moved(TaskState.RETRYING, "mail", TaskState.PENDING, "mail");
    assertThat(store.get(StateCounts.key(TaskState.RETRYING, "mail"))).isZero();
    assertThat(store.get(StateCounts.key(TaskState.PENDING, "mail"))).isEqualTo(4L);
  }
}
