package io.tasklane.scheduler.internal.lifecycle;

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
 * memory, every move is written, and a store of an earlier format is counted afresh from the
 * records once.
 */
class StateCountsTest {
  KeyValueStore<String, Long> store;
  KeyValueStore<String, TaskRecord> records;
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
    records =
        org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
                org.apache.kafka.streams.state.Stores.inMemoryKeyValueStore("records"),
                Serdes.String(),
                new TaskRecordSerde())
            .withLoggingDisabled()
            .build();
    MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
    store.init(context.getStateStoreContext(), store);
    records.init(context.getStateStoreContext(), records);
  }

  @AfterEach
  void close() {
    store.close();
    records.close();
  }

  /** Every StateCounts made, each a stream task's (a fresh start makes another). */
  private final java.util.List<StateCounts> made = new java.util.ArrayList<>();

  StateCounts counts() {
    StateCounts c = new StateCounts(store, memory::get, records::all);
    made.add(c);
    return c;
  }

  /** Stores {@code n} records in {@code state}, of {@code handler} (null: no envelope). */
  void records(int n, TaskState state, String handler) {
    for (int i = 0; i < n; i++) {
      String id = java.util.UUID.randomUUID().toString();
      TaskRecord.Edit e = TaskRecord.empty().edit();
      e.state = state;
      if (handler != null) {
        e.task =
            io.tasklane.core.TaskEnvelope.builder()
                .id(id)
                .handler(handler)
                .payload(io.tasklane.core.WireCodec.readTree("{}"))
                .dueAt(1)
                .createdAt(1)
                .build();
      }
      records.put(id, e.build());
    }
  }

  /** The stored count after the counts are written, as before a commit. */
  long count(TaskState state, String handler) {
    made.forEach(StateCounts::flush);
    Long n = store.get(StateCounts.key(state, handler));
    return n == null ? 0 : n;
  }

  @Test
  void aTransitionMovesTwoCountsAndCountsGoOnFromTheStoreAfterAFreshStart() {
    StateCounts counts = counts();
    for (int i = 0; i < 5; i++) {
      counts.moved(null, null, TaskState.PENDING, "mail");
    }
    counts.moved(null, null, TaskState.CANCELLED, null); // a cancel before its task
    counts.moved(TaskState.PENDING, "mail", TaskState.DISPATCHED, "mail");
    counts.moved(TaskState.PENDING, "mail", TaskState.DISPATCHED, "mail");
    assertThat(store.get(StateCounts.key(TaskState.DISPATCHED, "mail")))
        .as("written once per commit, not at each move")
        .isNull();
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
  void aStoreOfAnEarlierFormatIsCountedAfreshFromTheRecordsOnce() {
    // 0.1.0: one total per state, no handlers
    store.put("PENDING", 7L);
    store.put("DEAD", 3L);
    // a later format: totals beside per-handler counts (this one wrong on purpose)
    store.put("PENDING/mail", 40L);
    records(4, TaskState.PENDING, "mail");
    records(2, TaskState.PENDING, "sms");
    records(1, TaskState.PENDING, null);
    records(3, TaskState.DEAD, "mail");
    records(1, null, null); // a placeholder: no state, not counted
    StateCounts counts = counts();

    counts.upgradeOnce();
    assertThat(count(TaskState.PENDING, null)).isEqualTo(1);
    assertThat(count(TaskState.PENDING, "mail")).isEqualTo(4);
    assertThat(count(TaskState.PENDING, "sms")).isEqualTo(2);
    assertThat(count(TaskState.DEAD, null)).isZero();
    assertThat(count(TaskState.DEAD, "mail")).isEqualTo(3);
    assertThat(store.get(StateCounts.FORMAT_KEY)).isEqualTo(StateCounts.FORMAT);
    assertThat(StateCounts.stateOf(StateCounts.FORMAT_KEY)).isNull();
    assertThat(StateCounts.stateOf("PENDING/mail")).isEqualTo(TaskState.PENDING);

    // once only, also after a fresh start: records added now are not counted again
    records(5, TaskState.PENDING, "mail");
    memory.set(new HashMap<>());
    counts.moved(TaskState.PENDING, "mail", TaskState.DISPATCHED, "mail");
    assertThat(count(TaskState.PENDING, null)).isEqualTo(1);
    assertThat(count(TaskState.PENDING, "mail")).isEqualTo(3);
  }

  @Test
  void aNewStoreIsOnlyMarkedNotCountedFromTheRecords() {
    records(1, TaskState.PENDING, "mail"); // the first record, written before its first move
    StateCounts counts = counts();
    counts.moved(null, null, TaskState.PENDING, "mail");
    assertThat(count(TaskState.PENDING, "mail")).isEqualTo(1);
    assertThat(store.get(StateCounts.FORMAT_KEY)).isEqualTo(StateCounts.FORMAT);
  }
}
