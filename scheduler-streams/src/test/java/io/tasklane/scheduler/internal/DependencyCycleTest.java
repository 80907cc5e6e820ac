package io.tasklane.scheduler.internal;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad-input catalogue: tasks whose dependencies form a cycle (possible with keyed ids, which are
 * known before the task exists). A self-dependency is refused by TaskValidator; a longer cycle is
 * not detected: its tasks wait and are never dispatched, nothing else is held up, and cancelling
 * one of them ends the cycle (the others go DEAD naming it).
 */
class DependencyCycleTest {
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

  private static TaskEnvelope task(String id, String... deps) {
    TaskEnvelope t = Driver.task(T0, 3, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of(deps));
    return new TaskEnvelope(
        t.v(),
        id,
        t.handler(),
        t.key(),
        t.orderingKey(),
        t.payload(),
        t.dueAt(),
        t.maxAttempts(),
        t.timeoutMs(),
        t.backoff(),
        t.dependsOn(),
        t.headers(),
        t.createdAt(),
        t.source(),
        t.shard());
  }

  @Test
  void aTwoTaskCycleWaitsWithoutDispatchOrStallingOthersUntilAnOperatorCancelsIt() {
    String a = UUID.randomUUID().toString();
    String b = UUID.randomUUID().toString();
    d.send(task(a, b));
    d.send(task(b, a));
    TaskEnvelope bystander = Driver.task(T0);
    d.send(bystander);
    for (int i = 0; i < 4; i++) {
      d.loopControl();
    }

    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(bystander.id());
    d.sendResult(TaskResult.succeeded(bystander.id(), 1, d.now, d.now, "w"));
    assertThat(d.record(bystander.id()).state()).isEqualTo(TaskState.SUCCEEDED);

    // Not detected: both wait (visible as WAITING in the status API), past the retention window.
    d.advanceTo(T0 + Duration.ofDays(15).toMillis());
    d.loopControl();
    assertThat(d.record(a).state()).isEqualTo(TaskState.WAITING);
    assertThat(d.record(a).waitingOn()).containsExactly(b);
    assertThat(d.record(b).state()).isEqualTo(TaskState.WAITING);
    assertThat(d.dispatches()).isEmpty();

    // The way out: cancel one; the other goes DEAD naming it.
    d.sendControl(a, CancelCommand.of(a, "dependency cycle", d.now));
    for (int i = 0; i < 3; i++) {
      d.loopControl();
    }
    assertThat(d.record(a).state()).isEqualTo(TaskState.CANCELLED);
    assertThat(d.record(b).state()).isEqualTo(TaskState.DEAD);
    assertThat(d.record(b).reason()).contains(a).contains("CANCELLED");
    assertThat(d.dispatches()).isEmpty();
  }
}
