package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetryTest {
  static final ErrorInfo BOOM = new ErrorInfo("java.lang.IllegalStateException", "boom", null);

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

  private TaskResult failed(String id, int attempt, Outcome outcome, Long retryAfter) {
    return TaskResult.failed(id, attempt, outcome, BOOM, retryAfter, d.now, d.now, "w1");
  }

  /** Fails attempt {@code attempt} now and returns the next dispatch time. */
  private long failAndNextDue(TaskEnvelope task, int attempt) {
    d.sendResult(failed(task.id(), attempt, Outcome.FAILED, null));
    TaskRecord r = d.record(task.id());
    assertThat(r.state()).isEqualTo(TaskState.RETRYING);
    assertThat(r.failures()).isEqualTo(attempt);
    return r.dueAt();
  }

  private void redispatchedExactlyAt(TaskEnvelope task, long due, int attempt) {
    d.advanceTo(due - 1);
    assertThat(d.dispatches()).isEmpty();
    d.advanceTo(due);
    assertThat(d.dispatches()).extracting(Dispatch::attempt).containsExactly(attempt);
  }

  @Test
  void retriesWithFixedBackoffList() {
    TaskEnvelope task =
        Driver.task(
            T0, 5, RetryPolicy.fixed(Duration.ofSeconds(60), Duration.ofSeconds(300)), List.of());
    d.send(task);
    d.dispatches();
    long due = failAndNextDue(task, 1);
    assertThat(due - d.now).isEqualTo(60_000); // 60 s · (0.9 + 0.2 · 0.5)
    redispatchedExactlyAt(task, due, 2);
    due = failAndNextDue(task, 2);
    assertThat(due - d.now).isEqualTo(300_000);
    redispatchedExactlyAt(task, due, 3);
    due = failAndNextDue(task, 3);
    assertThat(due - d.now).isEqualTo(300_000); // the list's last delay again
  }

  @Test
  void retriesWithExponentialBackoff() {
    TaskEnvelope task =
        Driver.task(
            T0,
            5,
            RetryPolicy.exponential(Duration.ofSeconds(2), Duration.ofSeconds(5)),
            List.of());
    d.send(task);
    d.dispatches();
    long due = failAndNextDue(task, 1);
    assertThat(due - d.now).isEqualTo(2_000);
    redispatchedExactlyAt(task, due, 2);
    due = failAndNextDue(task, 2);
    assertThat(due - d.now).isEqualTo(4_000);
    redispatchedExactlyAt(task, due, 3);
    due = failAndNextDue(task, 3);
    assertThat(due - d.now).isEqualTo(5_000); // capped
  }

  @Test
  void retriesWithSidekiqBackoff() {
    TaskEnvelope task = Driver.task(T0, 5, RetryPolicy.sidekiq(), List.of());
    d.send(task);
    d.dispatches();
    long due = failAndNextDue(task, 1);
    assertThat(due - d.now).isEqualTo(16_000); // 1^4 + 15 + 0
    redispatchedExactlyAt(task, due, 2);
    due = failAndNextDue(task, 2);
    assertThat(due - d.now).isEqualTo(31_000); // 2^4 + 15 + 0
  }

  @Test
  void goesDeadWithDltRecordWhenAttemptsAreExhausted() {
    TaskEnvelope task = Driver.task(T0, 2, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of());
    d.send(task);
    d.dispatches();
    long due = failAndNextDue(task, 1);
    d.advanceTo(due);
    assertThat(d.dispatches()).hasSize(1);
    d.sendResult(failed(task.id(), 2, Outcome.FAILED, null));

    TaskRecord r = d.record(task.id());
    assertThat(r.state()).isEqualTo(TaskState.DEAD);
    assertThat(r.reason()).contains("attempts exhausted (2 of 2)");
    assertThat(r.lastError().message()).isEqualTo("boom");
    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.handlerDlt(Driver.HANDLER));
    assertThat(dlt).hasSize(1);
    Dispatch last = WireCodec.decodeDispatch(dlt.get(0).value());
    assertThat(last.attempt()).isEqualTo(2);
    assertThat(header(dlt.get(0), Outputs.ERROR_TYPE)).isEqualTo(BOOM.type());
    assertThat(header(dlt.get(0), Outputs.ERROR_MESSAGE)).isEqualTo("boom");
    assertThat(header(dlt.get(0), Outputs.REASON)).contains("attempts exhausted");
    assertThat(d.count("DEAD")).isEqualTo(1);
  }

  @Test
  void goesDeadAtOnceOnPermanentFailure() {
    TaskEnvelope task = Driver.task(T0);
    d.send(task);
    d.sendResult(failed(task.id(), 1, Outcome.PERMANENT_FAILURE, null));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.DEAD);
    assertThat(d.record(task.id()).failures()).isZero();
    assertThat(d.read(d.topics.handlerDlt(Driver.HANDLER))).hasSize(1);
  }

  @Test
  void keepsDeadTaskInStoreWhenDltTopicIsMissing() {
    d.known.topics.remove(d.topics.handlerDlt(Driver.HANDLER));
    TaskEnvelope task = Driver.task(T0);
    d.send(task);
    d.sendResult(failed(task.id(), 1, Outcome.PERMANENT_FAILURE, null));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.DEAD);
    assertThat(d.read(d.topics.handlerDlt(Driver.HANDLER))).isEmpty();
    assertThat(d.metrics.get("dlt.missing")).isEqualTo(1);
  }

  @Test
  void snoozesWithoutUsingAnAttemptUntilTheCap() {
    TaskEnvelope task = Driver.task(T0, 1, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of());
    d.send(task);
    for (int i = 1; i <= 3; i++) {
      assertThat(d.dispatches()).extracting(Dispatch::attempt).containsExactly(i);
      d.sendResult(failed(task.id(), i, Outcome.RETRY_LATER, 7_000L));
      TaskRecord r = d.record(task.id());
      assertThat(r.state()).isEqualTo(TaskState.RETRYING);
      assertThat(r.failures()).isZero();
      assertThat(r.dueAt()).isEqualTo(d.now + 7_000);
      d.advanceTo(r.dueAt());
    }
    d.sendResult(failed(task.id(), 4, Outcome.RETRY_LATER, 7_000L));
    TaskRecord r = d.record(task.id());
    assertThat(r.state()).isEqualTo(TaskState.DEAD);
    assertThat(r.reason()).contains("snoozed more than 3 times");
  }

  @Test
  void countsAMissedDeadlineAsAFailedAttempt() {
    TaskEnvelope task = Driver.task(T0, 3, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of());
    d.send(task);
    Dispatch first = d.dispatches().get(0);
    d.advanceTo(first.deadline() - 1);
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.DISPATCHED);
    d.advanceTo(first.deadline());
    TaskRecord r = d.record(task.id());
    assertThat(r.state()).isEqualTo(TaskState.RETRYING);
    assertThat(r.failures()).isEqualTo(1);
    assertThat(r.lastError().type()).isEqualTo("timeout");
    assertThat(r.history().get(0).outcome()).isEqualTo("TIMEOUT");
    d.advanceTo(r.dueAt());
    assertThat(d.dispatches()).extracting(Dispatch::attempt).containsExactly(2);
  }

  @Test
  void ignoresResultsOfOtherAttempts() {
    TaskEnvelope task = Driver.task(T0, 3, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of());
    d.send(task);
    assertThat(d.dispatches()).extracting(Dispatch::attempt).containsExactly(1);
    d.sendResult(failed(task.id(), 1, Outcome.FAILED, null));
    d.advanceTo(d.record(task.id()).dueAt());
    assertThat(d.dispatches()).extracting(Dispatch::attempt).containsExactly(2);

    d.sendResult(TaskResult.succeeded(task.id(), 1, d.now, d.now, "stale-worker"));
    d.sendResult(failed(task.id(), 1, Outcome.FAILED, null));
    d.sendResult(TaskResult.succeeded(task.id(), 3, d.now, d.now, "future-worker"));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.DISPATCHED);
    assertThat(d.metrics.get("result.fenced")).isEqualTo(3);

    d.sendResult(TaskResult.succeeded(task.id(), 2, d.now, d.now, "w2"));
    TaskRecord r = d.record(task.id());
    assertThat(r.state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(r.history())
        .extracting(AttemptEntry::outcome)
        .containsExactly("FAILED", "SUCCEEDED");
  }

  @Test
  void acceptsALateSuccessOfTheTimedOutAttemptBeforeTheRetry() {
    TaskEnvelope task = Driver.task(T0, 3, RetryPolicy.fixed(Duration.ofSeconds(60)), List.of());
    d.send(task);
    Dispatch first = d.dispatches().get(0);
    d.advanceTo(first.deadline());
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.RETRYING);

    d.sendResult(TaskResult.succeeded(task.id(), 1, d.now, d.now, "slow-worker"));

    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.SUCCEEDED);
    d.advance(120_000);
    assertThat(d.dispatches()).isEmpty();
  }

  private static String header(TestRecord<String, byte[]> r, String name) {
    return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }
}
