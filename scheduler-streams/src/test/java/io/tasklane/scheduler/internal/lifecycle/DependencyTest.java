package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver has one partition, so the cross-partition protocol is driven by piping the emitted
 * {@code await} / {@code dependency-done} records back into the control topic.
 */
class DependencyTest {
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

  private static TaskEnvelope waiter(String... deps) {
    return Driver.task(T0, 3, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of(deps));
  }

  @Test
  void waiterRunsOnlyAfterEveryDependencySucceeded() {
    TaskEnvelope a = Driver.task(T0);
    TaskEnvelope b = Driver.task(T0 + 10_000);
    TaskEnvelope w = waiter(a.id(), b.id());
    d.send(w);
    assertThat(d.record(w.id()).state()).isEqualTo(TaskState.WAITING);
    assertThat(d.loopControl()).isEqualTo(2); // two awaits, keyed by the dependency ids
    d.send(a);
    d.send(b);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(a.id());

    d.sendResult(TaskResult.succeeded(a.id(), 1, d.now, d.now, "w"));
    assertThat(d.loopControl()).isEqualTo(1);
    assertThat(d.record(w.id()).state()).isEqualTo(TaskState.WAITING);
    assertThat(d.record(w.id()).waitingOn()).containsExactly(b.id());

    d.advanceTo(T0 + 10_000);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(b.id());
    d.sendResult(TaskResult.succeeded(b.id(), 1, d.now, d.now, "w"));
    d.loopControl();
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(w.id());
    assertThat(d.record(w.id()).state()).isEqualTo(TaskState.DISPATCHED);
  }

  @Test
  void dependencyThatAlreadySucceededAnswersAtOnce() {
    TaskEnvelope a = Driver.task(T0);
    d.send(a);
    d.sendResult(TaskResult.succeeded(a.id(), 1, d.now, d.now, "w"));
    d.dispatches();
    TaskEnvelope w = waiter(a.id());
    d.send(w);
    d.loopControl(); // await
    d.loopControl(); // dependency-done
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(w.id());
  }

  @Test
  void deadDependencyMakesTheWaiterDeadWithTheReason() {
    TaskEnvelope a = Driver.task(T0);
    TaskEnvelope w = waiter(a.id());
    TaskEnvelope w2 = waiter(w.id());
    d.send(w);
    d.send(w2);
    d.loopControl();
    d.send(a);
    d.sendResult(
        TaskResult.failed(a.id(), 1, Outcome.PERMANENT_FAILURE, null, null, d.now, d.now, "w"));
    d.loopControl(); // a's done → w DEAD, which tells w2
    d.loopControl();

    TaskRecord r = d.record(w.id());
    assertThat(r.state()).isEqualTo(TaskState.DEAD);
    assertThat(r.reason()).contains("dependency " + a.id() + " is DEAD");
    assertThat(d.record(w2.id()).state()).isEqualTo(TaskState.DEAD);
    assertThat(d.record(w2.id()).reason()).contains(w.id());
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(a.id());
  }

  @Test
  void cancelledDependencyMakesTheWaiterDead() {
    TaskEnvelope a = Driver.task(T0 + 60_000);
    TaskEnvelope w = waiter(a.id());
    d.send(a);
    d.send(w);
    d.loopControl();
    d.sendControl(a.id(), CancelCommand.of(a.id(), "no longer needed", d.now));
    d.loopControl();
    TaskRecord r = d.record(w.id());
    assertThat(r.state()).isEqualTo(TaskState.DEAD);
    assertThat(r.reason()).contains("is CANCELLED").contains("no longer needed");
  }

  @Test
  void dependencyThatNeverArrivesFailsTheWaiterAfterRetention() {
    TaskEnvelope w = waiter("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    d.send(w);
    d.loopControl();
    d.advanceTo(T0 + Duration.ofDays(7).toMillis());
    d.loopControl();
    TaskRecord r = d.record(w.id());
    assertThat(r.state()).isEqualTo(TaskState.DEAD);
    assertThat(r.reason()).contains("did not arrive within the retention window");
  }
}
