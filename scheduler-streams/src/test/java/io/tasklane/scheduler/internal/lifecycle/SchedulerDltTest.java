package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records the scheduler cannot decode or apply, and timers it cannot fire, end on its DLT. */
class SchedulerDltTest {
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

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String header(TestRecord<String, byte[]> r, String name) {
    Header h = r.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  private static TaskEnvelope withHandler(String handler, long dueAt) {
    TaskEnvelope t = Driver.task(dueAt);
    return TaskEnvelope.builder()
        .id(UUID.randomUUID().toString())
        .handler(handler)
        .payload(t.payload())
        .dueAt(dueAt)
        .maxAttempts(3)
        .timeoutMs(5_000)
        .backoff(RetryPolicy.fixed(Duration.ofSeconds(10)))
        .createdAt(T0)
        .build();
  }

  @Test
  void undecodableInvalidAndFailingRecordsGoToTheSchedulerDltNamingReasonAndSource() {
    d.tasks.pipeInput(new TestRecord<>("k1", bytes("{not json")));
    TaskEnvelope invalid = withHandler("Bad Handler!", T0);
    byte[] invalidBytes = WireCodec.encode(invalid);
    d.tasks.pipeInput(new TestRecord<>(invalid.id(), invalidBytes));
    d.results.pipeInput(new TestRecord<>("k2", bytes("[]")));
    d.control.pipeInput(new TestRecord<>("k3", bytes("{\"v\":1,\"type\":\"explode\"}")));
    // Decodes, but is refused before it is applied: a trigger without a task id.
    byte[] noId = bytes("{\"v\":1,\"type\":\"trigger\",\"requestedAt\":1}");
    d.control.pipeInput(new TestRecord<>("k4", noId));

    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.schedulerDlt());
    assertThat(dlt)
        .extracting(TestRecord::key)
        .containsExactly("k1", invalid.id(), "k2", "k3", "k4");
    assertThat(dlt)
        .extracting(r -> header(r, Outputs.REASON))
        .containsExactly("undecodable", "invalid", "undecodable", "undecodable", "invalid");
    assertThat(dlt)
        .extracting(r -> header(r, Outputs.ORIGINAL_TOPIC))
        .containsExactly(
            d.topics.tasks(),
            d.topics.tasks(),
            d.topics.results(),
            d.topics.control(),
            d.topics.control());
    assertThat(dlt)
        .extracting(r -> header(r, Outputs.ORIGINAL_OFFSET))
        .containsExactly("0", "1", "0", "0", "1");
    assertThat(dlt)
        .allSatisfy(r -> assertThat(header(r, Outputs.ORIGINAL_PARTITION)).isEqualTo("0"));
    assertThat(header(dlt.get(1), Outputs.ERROR_MESSAGE)).contains("handler");
    assertThat(header(dlt.get(4), Outputs.ERROR_MESSAGE))
        .isEqualTo("trigger refused: id is missing (a canonical lower-case UUID, 36 characters)");
    assertThat(dlt.get(0).value()).isEqualTo(bytes("{not json"));
    assertThat(dlt.get(1).value()).isEqualTo(invalidBytes);
    assertThat(dlt.get(4).value()).isEqualTo(noId);
    assertThat(d.metrics.get("dlt.tasks.undecodable")).isEqualTo(1);
    assertThat(d.metrics.get("dlt.tasks.invalid")).isEqualTo(1);
    assertThat(d.metrics.get("dlt.control.invalid")).isEqualTo(1);
    assertThat(d.metrics.get("invalid.control")).isEqualTo(2);

    TaskEnvelope good = Driver.task(T0);
    d.send(good);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(good.id());
  }

  @Test
  void aTimerThatThrowsIsRemovedItsTaskGoesDeadAndTheOtherDueTasksStillDispatch() {
    // A record the lifecycle cannot dispatch (its handler is no topic name): the first due entry.
    TaskEnvelope poison = withHandler("Bad Handler!", T0 + 500);
    TaskRecord.Edit e = TaskRecord.empty().edit();
    e.task = poison;
    e.state = TaskState.PENDING;
    e.dueAt = poison.dueAt();
    e.timer(poison.dueAt(), TimerKind.DUE);
    KeyValueStore<String, TaskRecord> tasks = d.driver.getKeyValueStore(Stores.TASKS);
    KeyValueStore<Bytes, byte[]> index = d.driver.getKeyValueStore(Stores.DUE_INDEX);
    tasks.put(poison.id(), e.build());
    index.put(DueIndexKey.of(poison.dueAt(), poison.id()), new byte[] {TimerKind.DUE.code});
    TaskEnvelope a = Driver.task(T0 + 1_000);
    TaskEnvelope b = Driver.task(T0 + 1_000);
    d.send(a);
    d.send(b);

    d.advanceTo(T0 + 1_000);

    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactlyInAnyOrder(a.id(), b.id());
    assertThat(index.get(DueIndexKey.of(poison.dueAt(), poison.id()))).isNull();
    TaskRecord dead = d.record(poison.id());
    assertThat(dead.state()).isEqualTo(TaskState.DEAD);
    assertThat(dead.reason()).startsWith("timer failed: ").contains("handler");
    assertThat(dead.hasTimer()).as("forgotten through its search entry").isFalse();
    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.schedulerDlt());
    assertThat(dlt)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.key()).isEqualTo(poison.id());
              assertThat(header(r, Outputs.REASON)).isEqualTo("timer-failed");
              assertThat(header(r, Outputs.ORIGINAL_STORE)).isEqualTo(Stores.DUE_INDEX);
              assertThat(new String(r.value(), StandardCharsets.UTF_8)).contains(poison.id());
            });
    assertThat(d.metrics.get("error.timer")).isEqualTo(1);

    // Removed for good: later ticks (and tasks) do not meet it again.
    TaskEnvelope c = Driver.task(T0 + 3_000);
    d.send(c);
    d.advanceTo(T0 + 5_000);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(c.id());
    assertThat(d.metrics.get("error.timer")).isEqualTo(1);
  }
}
