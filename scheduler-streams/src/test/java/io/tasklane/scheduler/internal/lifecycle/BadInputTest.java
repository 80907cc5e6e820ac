package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BadInputTest {
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

  @Test
  void skipsAndCountsUndecodableRecordsOnEveryInputAndKeepsGoing() {
    d.tasks.pipeInput(new TestRecord<>("k", bytes("{not json")));
    d.tasks.pipeInput(new TestRecord<>("k", (byte[]) null));
    d.tasks.pipeInput(new TestRecord<>("k", bytes("{\"v\":99,\"type\":\"task\"}")));
    d.results.pipeInput(new TestRecord<>("k", bytes("[]")));
    d.control.pipeInput(new TestRecord<>("k", bytes("{\"v\":1,\"type\":\"explode\"}")));

    assertThat(d.metrics.get("invalid.tasks")).isEqualTo(3);
    assertThat(d.metrics.get("invalid.results")).isEqualTo(1);
    assertThat(d.metrics.get("invalid.control")).isEqualTo(1);

    TaskEnvelope good = Driver.task(T0);
    d.send(good);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(good.id());
  }

  @Test
  void skipsTasksThatFailValidation() {
    TaskEnvelope badHandler =
        TaskEnvelope.builder()
            .id(UUID.randomUUID().toString())
            .handler("Bad Handler!")
            .dueAt(T0)
            .maxAttempts(3)
            .timeoutMs(5_000)
            .createdAt(T0)
            .build();
    d.tasks.pipeInput(new TestRecord<>(badHandler.id(), WireCodec.encode(badHandler)));
    TaskEnvelope badAttempts =
        TaskEnvelope.builder()
            .id(UUID.randomUUID().toString())
            .handler(Driver.HANDLER)
            .dueAt(T0)
            .maxAttempts(0)
            .timeoutMs(5_000)
            .createdAt(T0)
            .build();
    d.tasks.pipeInput(new TestRecord<>(badAttempts.id(), WireCodec.encode(badAttempts)));
    assertThat(d.metrics.get("invalid.tasks")).isEqualTo(2);
    assertThat(d.record(badHandler.id())).isNull();
    assertThat(d.dispatches()).isEmpty();
  }

  @Test
  void ignoresAndCountsResultsForUnknownTasks() {
    d.sendResult(TaskResult.succeeded(UUID.randomUUID().toString(), 1, T0, T0, "w"));
    assertThat(d.metrics.get("result.unknown")).isEqualTo(1);
    assertThat(d.count("SUCCEEDED")).isZero();
  }
}
