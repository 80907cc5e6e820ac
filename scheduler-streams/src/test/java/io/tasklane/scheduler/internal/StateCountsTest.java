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
 * A transition moves the per-handler counts only (a state's total is their sum plus the tasks
 * without an envelope); counts are read from the store once per stream task start and then from
 * memory, every move is written, and a store of the earlier format is rewritten once.
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

  long count(TaskState state, String handler) {
    Long n = store.get(StateCounts.key(state, handler));
    return n == null ? 0 : n;
  }

  @Test
  void aTransitionMovesTwoCountsAndCountsGoOnFromTheStoreAfterAFreshStart() {
    StateCounts counts = new StateCounts(store, memory::get);
    for (int i = 0; i < 5; i++) {
      counts.moved(null, null, TaskState.PENDING, "mail");
    }
    counts.moved(null, null, TaskState.CANCELLED, null); // a cancel before its task
    counts.moved(TaskState.PENDING, "mail", TaskState.DISPATCHED, "mail");
    counts.moved(TaskState.PENDING, "mail", TaskState.DISPATCHED, "mail");
    assertThat(count(TaskState.PENDING, "mail")).isEqualTo(3);
    assertThat(count(TaskState.DISPATCHED, "mail")).isEqualTo(2);
    assertThat(count(TaskState.PENDING, null)).as("no total kept per state").isZero();
    assertThat(count(TaskState.CANCELLED, null)).isEqualTo(1);
    assertThat(memory.get()).containsEntry(StateCounts.key(TaskState.PENDING, "mail"), 3L);

    // the cancelled task's envelope arrives: it moves from "without envelope" to its handler
    counts.moved(TaskState.CANCELLED, null, TaskState.CANCELLED, "mail");
    assertThat(count(TaskState.CANCELLED, null)).isZero();
    assertThat(count(TaskState.CANCELLED, "mail")).isEqualTo(1);

    // the stream task starts afresh: its memory is new, the counts go on from the store
    memory.set(new HashMap<>());
    counts.moved(TaskState.DISPATCHED, "mail", TaskState.SUCCEEDED, "mail");
    assertThat(count(TaskState.DISPATCHED, "mail")).isEqualTo(1);
    assertThat(count(TaskState.SUCCEEDED, "mail")).isEqualTo(1);

    // a count never goes below zero
    counts.moved(TaskState.RETRYING, "mail", TaskState.PENDING, "mail");
    assertThat(count(TaskState.RETRYING, "mail")).isZero();
    assertThat(count(TaskState.PENDING, "mail")).isEqualTo(4);
  }

  @Test
  void aStoreOfTheEarlierFormatKeepsOnlyTheTasksWithoutAnEnvelopeInItsStateKeys() {
    // before: PENDING held every pending task (4 of "mail", 2 of "sms", 1 without an envelope)
    store.put("PENDING", 7L);
    store.put("PENDING/mail", 4L);
    store.put("PENDING/sms", 2L);
    store.put("DEAD", 3L);
    store.put("DEAD/mail", 3L);
    StateCounts counts = new StateCounts(store, memory::get);

    counts.upgradeOnce();
    assertThat(count(TaskState.PENDING, null)).isEqualTo(1);
    assertThat(count(TaskState.DEAD, null)).isZero();
    assertThat(count(TaskState.PENDING, "mail")).isEqualTo(4);
    assertThat(store.get(StateCounts.FORMAT_KEY)).isEqualTo(StateCounts.FORMAT);
    assertThat(StateCounts.stateOf(StateCounts.FORMAT_KEY)).isNull();
    assertThat(StateCounts.stateOf("PENDING/mail")).isEqualTo(TaskState.PENDING);

    // once only, also after a fresh start
    memory.set(new HashMap<>());
    counts.moved(TaskState.PENDING, "mail", TaskState.DISPATCHED, "mail");
    assertThat(count(TaskState.PENDING, null)).isEqualTo(1);
    assertThat(count(TaskState.PENDING, "mail")).isEqualTo(3);
  }
}
