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
import io.tasklane.core.Wire;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.api.TaskView;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Any worker principal can write {@code <ns>.results}; a result for the current attempt is applied
 * only when it carries the nonce of that attempt's dispatch and the task's handler. A worker of
 * another handler (which cannot read this handler's topic) cannot settle the task: its result goes
 * to the scheduler DLT as {@code result-mismatch} and the task is untouched.
 */
class ForgedResultTest {
  static final String OTHER = "report.build";

  @TempDir Path dir;
  Driver d;

  @BeforeEach
  void start() {
    d = new Driver(dir);
    d.known.topics.add(d.topics.handler(OTHER));
  }

  @AfterEach
  void stop() {
    d.close();
  }

  private static String header(TestRecord<String, byte[]> r, String name) {
    Header h = r.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  private static TaskResult result(String id, int attempt, Outcome outcome, String worker) {
    return outcome == Outcome.SUCCEEDED
        ? TaskResult.succeeded(id, attempt, T0, T0, worker)
        : TaskResult.failed(
            id, attempt, outcome, new ErrorInfo("forged", "forged", null), null, T0, T0, worker);
  }

  private static TaskResult bound(TaskResult r, String handler, String nonce) {
    return new TaskResult(
        r.v(),
        r.id(),
        r.attempt(),
        r.outcome(),
        r.error(),
        r.retryAfterMs(),
        r.startedAt(),
        r.finishedAt(),
        r.worker(),
        handler,
        nonce);
  }

  @Test
  void
      aResultWithTheRightAttemptButAnotherDispatchsNonceOrHandlerIsDeadLetteredAndTheGenuineOneSettles() {
    TaskEnvelope victim = Driver.task(T0);
    TaskEnvelope own =
        Driver.task(OTHER, T0, 3, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of());
    d.send(victim);
    d.send(own);
    Dispatch dispatch = d.dispatches().get(0);
    Dispatch ownDispatch = d.dispatches(OTHER).get(0);
    assertThat(dispatch.nonce()).hasSize(22).isNotEqualTo(ownDispatch.nonce());
    assertThat(d.record(victim.id()).nonce()).isEqualTo(dispatch.nonce());

    // A worker of OTHER answers its own dispatch as genuine (its nonce, its handler), but for the
    // victim's id; then a guessed nonce with the victim's handler; then an unbound result (as a
    // worker without nonces sends it); then the victim's nonce under another handler's name.
    String rk = dispatch.routingKey();
    d.sendResultAsIs(
        rk, result(victim.id(), 1, Outcome.SUCCEEDED, "w-other").answering(ownDispatch));
    d.sendResultAsIs(
        rk,
        bound(
            result(victim.id(), 1, Outcome.PERMANENT_FAILURE, "w-other"),
            Driver.HANDLER,
            "AAAAAAAAAAAAAAAAAAAAAA"));
    d.sendResultAsIs(rk, result(victim.id(), 1, Outcome.FAILED, "w-old"));
    d.sendResultAsIs(
        rk, bound(result(victim.id(), 1, Outcome.SUCCEEDED, "w-other"), OTHER, dispatch.nonce()));

    TaskRecord untouched = d.record(victim.id());
    assertThat(untouched.state()).isEqualTo(TaskState.DISPATCHED);
    assertThat(untouched.failures()).isZero();
    assertThat(untouched.history())
        .extracting(AttemptEntry::outcome)
        .containsExactly((String) null);
    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.schedulerDlt());
    assertThat(dlt).extracting(r -> header(r, Outputs.REASON)).containsOnly("result-mismatch");
    assertThat(dlt)
        .extracting(r -> header(r, Outputs.MISMATCH))
        .containsExactly("nonce,handler", "nonce", "nonce,handler", "handler");
    assertThat(dlt)
        .extracting(r -> header(r, Outputs.ORIGINAL_TOPIC))
        .containsOnly(d.topics.results());
    assertThat(header(dlt.get(0), Outputs.ERROR_MESSAGE))
        .isEqualTo(
            "result-mismatch: the result for attempt 1 of task "
                + victim.id()
                + " does not answer its dispatch (its dispatch nonce is not the dispatch's; its"
                + " handler 'report.build' is not the task's 'mail.send'); the task is unchanged");
    assertThat(header(dlt.get(2), Outputs.ERROR_MESSAGE))
        .contains("it carries no dispatch nonce; it names no handler");
    for (TestRecord<String, byte[]> r : dlt) {
      assertThat(header(r, Outputs.ERROR_MESSAGE))
          .doesNotContain(dispatch.nonce(), ownDispatch.nonce(), "AAAAAAAAAAAAAAAAAAAAAA");
    }
    assertThat(d.metrics.get("result.mismatch")).isEqualTo(4);
    assertThat(d.metrics.get("dlt.results.result-mismatch")).isEqualTo(4);
    assertThat(d.metrics.get("succeeded")).isZero();
    assertThat(d.metrics.get("dead")).isZero();
    // The API never shows the nonce that would let a reader settle the attempt.
    assertThat(TaskView.json(untouched)).doesNotContain(dispatch.nonce()).doesNotContain("nonce");

    // The genuine answer settles it; the same answer redelivered is fenced, not dead-lettered.
    TaskResult genuine = result(victim.id(), 1, Outcome.SUCCEEDED, "w1").answering(dispatch);
    d.sendResultAsIs(rk, genuine);
    assertThat(d.record(victim.id()).state()).isEqualTo(TaskState.SUCCEEDED);
    d.sendResultAsIs(rk, genuine);
    assertThat(d.record(victim.id()).state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(d.metrics.get("succeeded")).isEqualTo(1);
    assertThat(d.metrics.get("result.fenced")).isEqualTo(1);
    assertThat(d.read(d.topics.schedulerDlt())).isEmpty();
  }

  @Test
  void eachAttemptHasItsOwnNonceAndTheLastAttemptsNonceDoesNotSettleTheRetry() {
    TaskEnvelope task = Driver.task(T0, 3, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of());
    d.send(task);
    Dispatch first = d.dispatches().get(0);
    d.sendResultAsIs(
        first.routingKey(), result(task.id(), 1, Outcome.FAILED, "w1").answering(first));
    d.advanceTo(d.record(task.id()).dueAt());
    Dispatch second = d.dispatches().get(0);
    assertThat(second.attempt()).isEqualTo(2);
    assertThat(second.nonce()).isNotNull().isNotEqualTo(first.nonce());

    // attempt 2 with the nonce of attempt 1: whoever read the first dispatch cannot settle the
    // retry
    d.sendResultAsIs(
        first.routingKey(),
        bound(result(task.id(), 2, Outcome.SUCCEEDED, "w1"), Driver.HANDLER, first.nonce()));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.DISPATCHED);
    assertThat(d.read(d.topics.schedulerDlt()))
        .extracting(r -> header(r, Outputs.MISMATCH))
        .containsExactly("nonce");

    d.sendResultAsIs(
        second.routingKey(), result(task.id(), 2, Outcome.SUCCEEDED, "w2").answering(second));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.SUCCEEDED);
  }

  /**
   * During a rolling upgrade a task may have been dispatched by a scheduler without nonces: its
   * record has none, and a result without a nonce (from any worker) settles it, while a result that
   * names another handler, or carries a nonce the dispatch did not have, does not.
   */
  @Test
  void anAttemptDispatchedWithoutANonceAcceptsAnUnboundResultButNotAnotherHandlers() {
    TaskEnvelope task = Driver.task(T0);
    d.send(task);
    Dispatch dispatch = d.dispatches().get(0);
    KeyValueStore<String, TaskRecord> store = d.driver.getKeyValueStore(Stores.TASKS);
    TaskRecord.Edit legacy = store.get(task.id()).edit();
    legacy.nonce = null; // as a scheduler without nonces stored it
    store.put(task.id(), legacy.build());
    d.reopen(new TaskId(0, 0)); // read from the store again, as restarted
    Dispatch old =
        new Dispatch(
            Wire.VERSION,
            dispatch.task(),
            1,
            dispatch.deadline(),
            dispatch.routingKey(),
            dispatch.dispatchedAt());

    String rk = dispatch.routingKey();
    d.sendResultAsIs(rk, bound(result(task.id(), 1, Outcome.SUCCEEDED, "w-other"), OTHER, null));
    d.sendResultAsIs(
        rk,
        bound(
            result(task.id(), 1, Outcome.SUCCEEDED, "w1"),
            Driver.HANDLER,
            "AAAAAAAAAAAAAAAAAAAAAA"));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.DISPATCHED);
    assertThat(d.read(d.topics.schedulerDlt()))
        .extracting(r -> header(r, Outputs.MISMATCH))
        .containsExactly("handler", "nonce");

    d.sendResultAsIs(rk, result(task.id(), 1, Outcome.SUCCEEDED, "w-old"));
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(result(task.id(), 1, Outcome.SUCCEEDED, "w").answering(old).nonce()).isNull();
  }
}
