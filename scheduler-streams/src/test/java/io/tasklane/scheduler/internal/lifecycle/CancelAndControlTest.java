package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskInterrupt;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CancelAndControlTest {
  static final long RETENTION = Duration.ofDays(7).toMillis();

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

  private void cancelViaOutbox(String id) {
    d.tasks.pipeInput(
        new TestRecord<>(id, WireCodec.encode(CancelCommand.of(id, "order paid", d.now))));
  }

  @Test
  void cancelsAPendingTaskSoItIsNeverDispatched() {
    TaskEnvelope task = Driver.task(T0 + 60_000);
    d.send(task);
    cancelViaOutbox(task.id());
    d.advanceTo(T0 + 120_000);
    assertThat(d.dispatches()).isEmpty();
    TaskRecord r = d.record(task.id());
    assertThat(r.state()).isEqualTo(TaskState.CANCELLED);
    assertThat(r.reason()).contains("order paid");
    assertThat(d.count("CANCELLED")).isEqualTo(1);
    assertThat(d.count("PENDING")).isZero();
  }

  @Test
  void cancelsADispatchedTaskAndALateSuccessDoesNotReviveIt() {
    TaskEnvelope task = Driver.task(T0);
    d.send(task);
    assertThat(d.dispatches()).hasSize(1);
    d.sendControl(task.id(), CancelCommand.of(task.id(), "operator", d.now));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.CANCELLED);

    d.sendResult(TaskResult.succeeded(task.id(), 1, d.now, d.now, "w1"));
    TaskRecord r = d.record(task.id());
    assertThat(r.state()).isEqualTo(TaskState.CANCELLED);
    assertThat(r.history().get(0).outcome()).isEqualTo("SUCCEEDED (after cancel)");
    d.advance(60_000);
    assertThat(d.dispatches()).isEmpty();
  }

  @Test
  void cancellingADispatchedTaskInterruptsOnlyItsRunningAttempt() {
    TaskEnvelope pending = Driver.task(T0 + 60_000);
    TaskEnvelope running = Driver.task(T0);
    d.send(pending);
    d.send(running);
    assertThat(d.dispatches()).hasSize(1);
    cancelViaOutbox(pending.id());
    assertThat(d.read(d.topics.interrupts())).as("a PENDING task runs nowhere").isEmpty();

    cancelViaOutbox(running.id());
    assertThat(d.read(d.topics.interrupts()))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.key()).isEqualTo(running.id());
              TaskInterrupt i = WireCodec.decodeInterrupt(r.value());
              assertThat(i.id()).isEqualTo(running.id());
              assertThat(i.attempt()).isEqualTo(1);
              assertThat(i.reason()).isEqualTo("cancelled: order paid");
            });
    assertThat(d.metrics.get("interrupt.sent")).isEqualTo(1);

    // The interrupted attempt's answer is recorded; the task stays CANCELLED and is not retried.
    d.sendResult(
        TaskResult.failed(
            running.id(), 1, Outcome.CANCELLED, null, null, d.now, d.now, "worker-1"));
    TaskRecord r = d.record(running.id());
    assertThat(r.state()).isEqualTo(TaskState.CANCELLED);
    assertThat(r.history().get(0).outcome()).isEqualTo("CANCELLED (after cancel)");
    d.advance(600_000);
    assertThat(d.dispatches()).isEmpty();
    // A second cancel of the finished task interrupts nothing.
    cancelViaOutbox(running.id());
    assertThat(d.read(d.topics.interrupts())).isEmpty();
  }

  @Test
  void aCancelledOutcomeForATaskThatIsNotCancelledCountsAsAFailedAttempt() {
    TaskEnvelope task = Driver.task(T0);
    d.send(task);
    assertThat(d.dispatches()).hasSize(1);
    d.sendResult(
        TaskResult.failed(task.id(), 1, Outcome.CANCELLED, null, null, d.now, d.now, "worker-1"));
    TaskRecord r = d.record(task.id());
    assertThat(r.state()).isEqualTo(TaskState.RETRYING);
    assertThat(r.lastError().type()).isEqualTo("interrupted");
  }

  @Test
  void aCancelThatOvertakesItsTaskWins() {
    TaskEnvelope task = Driver.task(T0);
    cancelViaOutbox(task.id());
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.CANCELLED);
    d.advance(60_000);
    d.send(task);
    assertThat(d.dispatches()).isEmpty();
    TaskRecord r = d.record(task.id());
    assertThat(r.state()).isEqualTo(TaskState.CANCELLED);
    assertThat(r.task()).isEqualTo(task);
    assertThat(d.metrics.get("cancelled-before-arrival")).isEqualTo(1);
  }

  @Test
  void retryDeadGivesFreshAttemptsAndDispatchesNow() {
    TaskEnvelope task = Driver.task(T0);
    d.send(task);
    d.sendResult(
        TaskResult.failed(task.id(), 1, Outcome.PERMANENT_FAILURE, null, null, d.now, d.now, "w"));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.DEAD);
    d.dispatches();
    d.advance(1_000);

    d.sendControl(task.id(), ControlCommand.RetryDead.of(task.id(), d.now));

    assertThat(d.dispatches()).extracting(Dispatch::attempt).containsExactly(2);
    TaskRecord r = d.record(task.id());
    assertThat(r.state()).isEqualTo(TaskState.DISPATCHED);
    assertThat(r.failures()).isZero();
    assertThat(d.count("DEAD")).isZero();
  }

  @Test
  void triggerRunsAPendingTaskNow() {
    TaskEnvelope task = Driver.task(T0 + 3_600_000);
    d.send(task);
    d.sendControl(task.id(), ControlCommand.Trigger.of(task.id(), d.now));
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(task.id());
    d.advanceTo(T0 + 3_600_000);
    assertThat(d.dispatches()).isEmpty();
  }

  @Test
  void discardForgetsADeadTaskButNotOthers() {
    TaskEnvelope dead = Driver.task(T0);
    TaskEnvelope pending = Driver.task(T0 + 60_000);
    d.send(dead);
    d.send(pending);
    d.sendResult(
        TaskResult.failed(dead.id(), 1, Outcome.PERMANENT_FAILURE, null, null, d.now, d.now, "w"));
    d.sendControl(dead.id(), ControlCommand.Discard.of(dead.id(), d.now));
    d.sendControl(pending.id(), ControlCommand.Discard.of(pending.id(), d.now));
    assertThat(d.record(dead.id())).isNull();
    assertThat(d.record(pending.id()).state()).isEqualTo(TaskState.PENDING);
    assertThat(d.count("DEAD")).isZero();
    assertThat(d.metrics.get("discard.ignored")).isEqualTo(1);
  }

  @Test
  void purgesFinishedTasksAfterTheRetentionWindow() {
    TaskEnvelope task = Driver.task(T0);
    d.send(task);
    d.sendResult(TaskResult.succeeded(task.id(), 1, d.now, d.now, "w1"));
    TaskEnvelope cancelledEarly = Driver.task(T0);
    cancelViaOutbox(cancelledEarly.id());
    assertThat(d.count("SUCCEEDED")).isEqualTo(1);

    d.advanceTo(T0 + RETENTION - 1);
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.SUCCEEDED);
    d.send(task); // still deduplicated inside the window
    assertThat(d.metrics.get("duplicate")).isEqualTo(1);

    d.advanceTo(T0 + RETENTION);
    assertThat(d.record(task.id())).isNull();
    assertThat(d.record(cancelledEarly.id())).isNull();
    assertThat(d.count("SUCCEEDED")).isZero();
    assertThat(d.count("CANCELLED")).isZero();
    assertThat(d.indexSize()).isZero();
  }
}
