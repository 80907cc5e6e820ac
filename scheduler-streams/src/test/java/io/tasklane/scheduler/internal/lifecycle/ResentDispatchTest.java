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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under at-least-once a task's DISPATCHED record and its dispatch are separate output records: a
 * kill -9, or a produce error that fails the stream task (a partition whose leader moved), can keep
 * the record and lose the dispatch. The retry of a failed attempt is dispatched by the punctuator,
 * so no input replay makes it again; without the write-back pass sending it again, the attempt
 * waited for its deadline (timeout + grace, 35 min by default) with no worker holding it.
 */
class ResentDispatchTest {
  static final ErrorInfo BOOM = new ErrorInfo("java.lang.IllegalStateException", "503", null);

  @TempDir Path dir;
  Driver d;

  @AfterEach
  void stop() {
    d.close();
  }

  /** What a crash, a move or a revived stream task does to the stream task's memory. */
  private void restart() {
    d.reopen(new TaskId(0, 0));
  }

  private TaskResult failed(Dispatch dispatch) {
    return TaskResult.failed(
        dispatch.id(), dispatch.attempt(), Outcome.FAILED, BOOM, null, d.now, d.now, "w1");
  }

  private TaskResult succeeded(Dispatch dispatch) {
    return TaskResult.succeeded(dispatch.id(), dispatch.attempt(), d.now, d.now, "w1")
        .answering(dispatch);
  }

  /** A task that fails its first attempt and whose retry is dispatched and then lost. */
  private Dispatch retryDispatchedAndLost(TaskEnvelope task) {
    d.send(task);
    Dispatch first = d.dispatches().get(0);
    d.sendResult(first, failed(first).answering(first));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.RETRYING);
    d.advance(1_000);
    List<Dispatch> retry = d.dispatches(); // never reaches a worker
    assertThat(retry).extracting(Dispatch::attempt).containsExactly(2);
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.DISPATCHED);
    return retry.get(0);
  }

  @Test
  void aRetryWhoseDispatchWasLostIsDispatchedAgainAfterTheRestart() {
    d = new Driver(dir);
    TaskEnvelope task = Driver.task(T0, 5, RetryPolicy.fixed(Duration.ofMillis(500)), List.of());
    Dispatch lost = retryDispatchedAndLost(task);

    restart();
    d.advance(200); // the pass reads a slice every 200 ms

    List<Dispatch> again = d.dispatches();
    assertThat(again).hasSize(1);
    assertThat(again.get(0))
        .as("the same attempt, deadline and nonce, so that either copy settles it")
        .isEqualTo(lost);
    assertThat(d.metrics.get(SchedulerEvent.DISPATCH_RESENT)).isEqualTo(1);
    TaskRecord r = d.record(task.id());
    assertThat(r.state()).isEqualTo(TaskState.DISPATCHED);
    assertThat(r.attempt()).isEqualTo(2);
    assertThat(r.history()).hasSize(2);

    d.sendResult(again.get(0), succeeded(again.get(0)));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.SUCCEEDED);
    d.sendResult(lost, succeeded(lost)); // the answer to the other copy, if it arrived after all
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(d.read(d.topics.schedulerDlt())).isEmpty();

    d.runTo(d.now + 60_000);
    assertThat(d.dispatches()).as("sent again once, by the pass after the restart").isEmpty();
  }

  @Test
  void withoutARestartNothingIsSentAgain() {
    d = new Driver(dir);
    TaskEnvelope task = Driver.task(T0, 5, RetryPolicy.fixed(Duration.ofMillis(500)), List.of());
    retryDispatchedAndLost(task);

    d.runTo(d.now + 5_000);

    assertThat(d.dispatches()).isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.DISPATCH_RESENT)).isZero();
  }

  @Test
  void anAttemptDispatchedLongBeforeTheRestartIsLeftToItsDeadline() {
    d = new Driver(dir);
    TaskEnvelope task =
        TaskEnvelope.builder()
            .id(UUID.randomUUID().toString())
            .handler(Driver.HANDLER)
            .payload(WireCodec.readTree("{\"to\":\"a@b.c\"}"))
            .dueAt(T0)
            .maxAttempts(3)
            .timeoutMs(Duration.ofHours(1).toMillis())
            .backoff(RetryPolicy.fixed(Duration.ofSeconds(1)))
            .createdAt(T0)
            .build();
    d.send(task);
    assertThat(d.dispatches()).hasSize(1);
    d.runTo(T0 + TimerRepair.RESEND_WINDOW_MS + 1_000);

    restart();
    d.advance(200); // the pass reads a slice every 200 ms

    assertThat(d.dispatches()).isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.DISPATCH_RESENT)).isZero();
  }

  @Test
  void underExactlyOnceTheDispatchCommitsWithItsRecordAndIsNotSentAgain() {
    d = new Driver(dir, 1_000, 1_000, false);
    TaskEnvelope task = Driver.task(T0, 5, RetryPolicy.fixed(Duration.ofMillis(500)), List.of());
    retryDispatchedAndLost(task);

    restart();
    d.advance(200); // the pass reads a slice every 200 ms

    assertThat(d.dispatches()).isEmpty();
  }
}
