package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
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

/** The number of tasks waiting on one task is capped ({@code max-waiters-per-task}). */
class WaiterCapTest {
  static final int CAP = 2;

  @TempDir Path dir;
  Driver d;

  @BeforeEach
  void start() {
    d = new Driver(dir, 1_000, 1_000, true, CAP);
  }

  @AfterEach
  void stop() {
    d.close();
  }

  private static TaskEnvelope waiter(String dep) {
    return Driver.task(T0, 3, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of(dep));
  }

  @Test
  void theWaiterOverTheCapGoesDeadNamingItAndTheOthersRunAfterTheDependency() {
    TaskEnvelope dep = Driver.task(T0 + 10_000);
    d.send(dep);
    TaskEnvelope w1 = waiter(dep.id());
    TaskEnvelope w2 = waiter(dep.id());
    TaskEnvelope w3 = waiter(dep.id());
    d.send(w1);
    d.send(w2);
    d.send(w3);
    // The driver feeds control output back in: 3 awaits, then dependency-done DEAD for the third.
    assertThat(d.metrics.get("waiters.cap")).isEqualTo(1);
    assertThat(d.loopControl()).isEqualTo(4); // piped once more: the repeats change no state

    assertThat(d.record(dep.id()).waiters()).hasSize(CAP);
    TaskRecord refused = d.record(w3.id());
    assertThat(refused.state()).isEqualTo(TaskState.DEAD);
    assertThat(refused.reason())
        .isEqualTo(
            "too many waiters: dependency "
                + dep.id()
                + " already has 2 waiting tasks, the limit"
                + " (tasklane.scheduler.max-waiters-per-task)");
    assertThat(refused.lastError().type()).isEqualTo("waiter-cap");
    assertThat(d.record(w1.id()).state()).isEqualTo(TaskState.WAITING);
    assertThat(d.record(dep.id()).state()).isEqualTo(TaskState.PENDING); // unharmed

    d.advanceTo(T0 + 10_000);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(dep.id());
    d.sendResult(TaskResult.succeeded(dep.id(), 1, d.now, d.now, "w"));
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactlyInAnyOrder(w1.id(), w2.id());
  }

  @Test
  void aRepeatedAwaitOfAKnownWaiterIsNotCountedAgainstTheCap() {
    TaskEnvelope dep = Driver.task(T0 + 10_000);
    d.send(dep);
    TaskEnvelope w1 = waiter(dep.id());
    TaskEnvelope w2 = waiter(dep.id());
    d.send(w1);
    d.send(w2);
    assertThat(d.loopControl()).isEqualTo(2);
    d.sendDependency(
        dep.id(), io.tasklane.core.ControlCommand.Await.of(dep.id(), w1.id(), w1.id()));
    assertThat(d.loopControl()).isZero();
    assertThat(d.metrics.get("waiters.cap")).isZero();
    assertThat(d.record(dep.id()).waiters()).hasSize(CAP);
  }
}
