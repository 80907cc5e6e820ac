package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records whose key is null or not the routing key their body implies would be applied on a
 * partition where results and commands for that task never arrive: they go to the scheduler DLT
 * with reason {@code wrong-key} and are not applied. (TopologyTestDriver has one partition, so the
 * test shows the record is refused, not that it would have landed elsewhere.)
 */
class WrongKeyTest {
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

  static TaskEnvelope withOrderingKey(String orderingKey) {
    TaskEnvelope t = Driver.task(T0);
    return t.toBuilder().orderingKey(orderingKey).build();
  }

  private static String header(TestRecord<String, byte[]> r, String name) {
    Header h = r.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  private void pipe(
      org.apache.kafka.streams.TestInputTopic<String, byte[]> topic, String key, Object value) {
    topic.pipeInput(new TestRecord<>(key, WireCodec.encode(value), Instant.ofEpochMilli(d.now)));
  }

  @Test
  void tasksWithANullOrAWrongKeyGoToTheDltNamingBothKeysAndAreNotAdmitted() {
    TaskEnvelope nullKey = Driver.task(T0);
    TaskEnvelope otherKey = Driver.task(T0);
    TaskEnvelope keyedById = withOrderingKey("tenant-7");
    pipe(d.tasks, null, nullKey);
    pipe(d.tasks, "tenant-9", otherKey);
    pipe(d.tasks, keyedById.id(), keyedById); // its routing key is its ordering key

    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.schedulerDlt());
    assertThat(dlt).extracting(r -> header(r, Outputs.REASON)).containsOnly("wrong-key");
    assertThat(dlt)
        .extracting(r -> header(r, Outputs.ERROR_MESSAGE))
        .containsExactly(
            "wrong-key: expected key '"
                + nullKey.id()
                + "' (the task's routing key), found null; a record applied on the wrong"
                + " partition would never meet its task's results and commands",
            "wrong-key: expected key '"
                + otherKey.id()
                + "' (the task's routing key), found 'tenant-9'; a record applied on the wrong"
                + " partition would never meet its task's results and commands",
            "wrong-key: expected key 'tenant-7' (the task's routing key), found '"
                + keyedById.id()
                + "'; a record applied on the wrong partition would never meet its task's"
                + " results and commands");
    assertThat(dlt.get(1).value()).isEqualTo(WireCodec.encode(otherKey));
    assertThat(header(dlt.get(1), Outputs.ORIGINAL_TOPIC)).isEqualTo(d.topics.tasks());
    assertThat(d.record(nullKey.id())).isNull();
    assertThat(d.record(otherKey.id())).isNull();
    assertThat(d.record(keyedById.id())).isNull();
    assertThat(d.dispatches()).isEmpty();
    assertThat(d.metrics.get("wrong-key.tasks")).isEqualTo(3);
    assertThat(d.metrics.get("dlt.tasks.wrong-key")).isEqualTo(3);

    // The same tasks under their routing keys are admitted and dispatched.
    pipe(d.tasks, otherKey.id(), otherKey);
    pipe(d.tasks, "tenant-7", keyedById);
    assertThat(d.dispatches())
        .extracting(Dispatch::id)
        .containsExactly(otherKey.id(), keyedById.id());
  }

  @Test
  void resultsAndCancelsWithAWrongKeyAreDeadLetteredAndTheTaskIsUntouched() {
    TaskEnvelope task = withOrderingKey("tenant-7");
    d.send(task);
    Dispatch dispatch = d.dispatches().get(0);
    TaskResult ok =
        TaskResult.succeeded(task.id(), dispatch.attempt(), d.now, d.now, "w1").answering(dispatch);

    pipe(d.results, task.id(), ok); // keyed by the id, not the dispatch's routing key
    pipe(d.results, null, ok);
    pipe(d.tasks, task.id(), CancelCommand.of(task.id(), "from the outbox", d.now));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.DISPATCHED);
    assertThat(d.read(d.topics.schedulerDlt()))
        .extracting(r -> header(r, Outputs.ORIGINAL_TOPIC) + " " + header(r, Outputs.REASON))
        .containsExactly(
            d.topics.results() + " wrong-key",
            d.topics.results() + " wrong-key",
            d.topics.tasks() + " wrong-key");
    assertThat(d.metrics.get("result.unknown")).isZero();

    pipe(d.results, dispatch.routingKey(), ok);
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.SUCCEEDED);
  }

  /**
   * A forged but well-formed control record naming task X, keyed by another task's routing key:
   * Kafka puts it on that key's partition, where X's state does not live. It is not applied there
   * (no stray CANCELLED tombstone for X) and goes to the DLT.
   */
  @Test
  void aForgedControlRecordKeyedByAnotherTasksRoutingKeyGoesToTheDlt() {
    TaskEnvelope target = Driver.task(T0 + 60_000);
    TaskEnvelope other = withOrderingKey("tenant-3");
    d.send(target);
    d.send(other);

    d.sendControl("tenant-3", CancelCommand.of(target.id(), "forged", d.now, "mallory"));
    d.sendControl("tenant-3", ControlCommand.Trigger.of(target.id(), d.now, "mallory"));
    d.sendControl(null, ControlCommand.Discard.of(target.id(), d.now, "mallory"));
    String unknown = java.util.UUID.randomUUID().toString();
    d.sendControl("tenant-3", CancelCommand.of(unknown, "forged", d.now, "mallory"));

    assertThat(d.record(target.id()).state()).isEqualTo(TaskState.PENDING);
    assertThat(d.record(unknown)).isNull();
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(other.id());
    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.schedulerDlt());
    assertThat(dlt).hasSize(4);
    assertThat(dlt).extracting(r -> header(r, Outputs.REASON)).containsOnly("wrong-key");
    assertThat(header(dlt.get(0), Outputs.ERROR_MESSAGE))
        .startsWith(
            "wrong-key: expected key '"
                + target.id()
                + "' (the routing key of task "
                + target.id()
                + "), found 'tenant-3'");
    assertThat(d.metrics.get("dlt.control.wrong-key")).isEqualTo(4);

    // The dependency protocol (the scheduler's own topic) keys an await by the awaited id and is
    // not refused.
    d.sendDependency(target.id(), ControlCommand.Await.of(target.id(), unknown, unknown));
    assertThat(d.record(target.id()).waiters()).hasSize(1);
    // A genuine command under the right key still works.
    d.sendControl(target.id(), CancelCommand.of(target.id(), "real", d.now, "ops"));
    assertThat(d.record(target.id()).state()).isEqualTo(TaskState.CANCELLED);
  }
}
