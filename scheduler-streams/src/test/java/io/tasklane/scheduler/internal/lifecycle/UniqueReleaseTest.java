package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.UniqueRelease;
import io.tasklane.core.UniqueUntil;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task whose unique window ends with it ({@link UniqueUntil}) announces its end on {@code
 * <ns>.unique-releases}, keyed by its id, in the step that stores the end: {@code end} on any
 * terminal state, {@code success} only when it succeeded; other tasks announce nothing.
 */
class UniqueReleaseTest {
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

  private static TaskEnvelope unique(String key, UniqueUntil until, int maxAttempts) {
    return Driver.task(T0 - 1_000, maxAttempts, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of())
        .toBuilder()
        .key(key)
        .options(TaskOptions.builder().uniqueUntil(until).build())
        .build();
  }

  private List<UniqueRelease> releases() {
    List<TestRecord<String, byte[]>> out = d.read(d.topics.uniqueReleases());
    out.forEach(
        r -> assertThat(r.key()).isEqualTo(WireCodec.decodeUniqueRelease(r.value()).taskId()));
    return out.stream().map(r -> WireCodec.decodeUniqueRelease(r.value())).toList();
  }

  private void succeed(Dispatch x) {
    d.sendResult(x, TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1"));
  }

  private void fail(Dispatch x) {
    d.sendResult(
        x,
        TaskResult.failed(
            x.id(),
            x.attempt(),
            Outcome.FAILED,
            new ErrorInfo("boom", "X", null),
            null,
            d.now,
            d.now,
            "w1"));
  }

  @Test
  void untilEndReleasesWhenTheTaskSucceedsGoesDeadOrIsCancelled() {
    TaskEnvelope ok = unique("order-1", UniqueUntil.END, 3);
    TaskEnvelope dead = unique("order-2", UniqueUntil.END, 1);
    d.send(ok);
    d.send(dead);
    List<Dispatch> sent = d.dispatches();
    assertThat(releases()).as("nothing while they run").isEmpty();
    succeed(sent.get(0));
    fail(sent.get(1));
    TaskEnvelope cancelled =
        unique("order-3", UniqueUntil.END, 3).toBuilder().dueAt(T0 + 60_000).build();
    d.send(cancelled);
    d.send(cancelled.routingKey(), CancelCommand.of(cancelled.id(), "not wanted", d.now));

    assertThat(releases())
        .extracting(UniqueRelease::taskId, UniqueRelease::key, UniqueRelease::state)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(ok.id(), "order-1", TaskState.SUCCEEDED),
            org.assertj.core.groups.Tuple.tuple(dead.id(), "order-2", TaskState.DEAD),
            org.assertj.core.groups.Tuple.tuple(cancelled.id(), "order-3", TaskState.CANCELLED));
    assertThat(d.metrics.get(SchedulerEvent.UNIQUE_RELEASED)).isEqualTo(3);
  }

  @Test
  void untilSuccessReleasesOnlyWhenTheTaskSucceeds() {
    TaskEnvelope dead = unique("order-1", UniqueUntil.SUCCESS, 1);
    TaskEnvelope retried = unique("order-2", UniqueUntil.SUCCESS, 3);
    d.send(dead);
    d.send(retried);
    List<Dispatch> sent = d.dispatches();
    fail(sent.get(0));
    fail(sent.get(1));
    assertThat(d.record(dead.id()).state()).isEqualTo(TaskState.DEAD);
    assertThat(releases()).as("a DEAD task keeps its window; a retry is no end").isEmpty();

    d.advance(1_000);
    Dispatch retry = d.dispatches().get(0);
    succeed(retry);
    assertThat(releases()).extracting(UniqueRelease::taskId).containsExactly(retried.id());
    assertThat(releases()).as("announced once").isEmpty();
  }

  @Test
  void aTaskWithoutTheOptionAnnouncesNothing() {
    TaskEnvelope plain = Driver.task(T0 - 1_000).toBuilder().key("order-1").build();
    d.send(plain);
    succeed(d.dispatches().get(0));
    assertThat(d.record(plain.id()).state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(releases()).isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.UNIQUE_RELEASED)).isZero();
  }
}
