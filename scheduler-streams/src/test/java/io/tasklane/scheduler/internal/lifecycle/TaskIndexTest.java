package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.HANDLER;
import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search index and the per-(state, handler) counts follow every transition of a task through
 * the topology: one entry per task at its state and updatedAt, none once it is forgotten.
 */
class TaskIndexTest {
  @TempDir Path dir;
  Driver d;

  @BeforeEach
  void start() {
    d = new Driver(dir);
  }

  @AfterEach
  void stop() {
    d.close();
  }

  /** Every entry of the index as (state, handler, updatedAt, id). */
  List<String> entries() {
    KeyValueStore<Bytes, byte[]> store = d.driver.getKeyValueStore(Stores.TASK_INDEX);
    List<String> out = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        String k = new String(kv.key.get(), 0, kv.key.get().length);
        String state = k.substring(0, k.indexOf('\0'));
        String rest = k.substring(state.length() + 1);
        String handler = rest.substring(0, rest.indexOf('\0'));
        int prefix = state.length() + handler.length() + 2;
        out.add(
            state
                + " "
                + handler
                + " "
                + TaskIndexKey.updatedAt(kv.key, prefix)
                + " "
                + TaskIndexKey.taskId(kv.key, prefix));
      }
    }
    return out;
  }

  long handlerCount(TaskState state, String handler) {
    KeyValueStore<String, Long> store = d.driver.getKeyValueStore(Stores.STATE_COUNTS);
    Long n = store.get(StateCounts.key(state, handler));
    return n == null ? 0 : n;
  }

  String entry(String id) {
    TaskRecord r = d.record(id);
    return r.state() + " " + r.task().handler() + " " + r.updatedAt() + " " + id;
  }

  @Test
  void oneEntryPerTaskFollowsItsStateAndGoesWhenItIsForgotten() {
    TaskEnvelope runs = Driver.task(T0);
    TaskEnvelope dies =
        Driver.task(HANDLER, T0, 1, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of());
    TaskEnvelope later = Driver.task(T0 + 3_600_000);
    d.send(runs);
    d.send(dies);
    d.send(later);
    assertThat(entries())
        .containsExactlyInAnyOrder(entry(runs.id()), entry(dies.id()), entry(later.id()));
    d.advance(200);
    assertThat(handlerCount(TaskState.PENDING, HANDLER)).isEqualTo(1);
    assertThat(handlerCount(TaskState.DISPATCHED, HANDLER)).isEqualTo(2);
    assertThat(entries())
        .containsExactlyInAnyOrder(entry(runs.id()), entry(dies.id()), entry(later.id()));
    for (Dispatch x : d.dispatches()) {
      d.sendResult(
          x,
          x.id().equals(runs.id())
              ? TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1")
              : TaskResult.failed(
                  x.id(),
                  x.attempt(),
                  Outcome.FAILED,
                  new ErrorInfo("boom", "no", null),
                  null,
                  d.now,
                  d.now,
                  "w1"));
    }
    assertThat(d.record(dies.id()).state()).isEqualTo(TaskState.DEAD);
    assertThat(entries())
        .containsExactlyInAnyOrder(entry(runs.id()), entry(dies.id()), entry(later.id()));
    assertThat(handlerCount(TaskState.SUCCEEDED, HANDLER)).isEqualTo(1);
    assertThat(handlerCount(TaskState.DEAD, HANDLER)).isEqualTo(1);
    assertThat(handlerCount(TaskState.PENDING, HANDLER)).isEqualTo(1);
    assertThat(handlerCount(TaskState.DISPATCHED, HANDLER)).isZero();
    assertThat(d.count("DEAD")).isEqualTo(1); // the per-state gauge's count still works

    d.sendControl(dies.id(), ControlCommand.Discard.of(dies.id(), d.now));
    d.sendControl(later.id(), CancelCommand.of(later.id(), "no longer needed", d.now));
    assertThat(entries()).containsExactlyInAnyOrder(entry(runs.id()), entry(later.id()));
    assertThat(entries()).anyMatch(e -> e.startsWith("CANCELLED " + HANDLER));
    assertThat(handlerCount(TaskState.DEAD, HANDLER)).isZero();
    assertThat(handlerCount(TaskState.CANCELLED, HANDLER)).isEqualTo(1);

    // An early cancel has no envelope: no entry, no per-handler count, the per-state count as
    // before.
    String early = UUID.randomUUID().toString();
    d.sendControl(early, CancelCommand.of(early, "early", d.now));
    assertThat(entries()).hasSize(2);
    assertThat(d.count("CANCELLED")).isEqualTo(2);
  }
}
