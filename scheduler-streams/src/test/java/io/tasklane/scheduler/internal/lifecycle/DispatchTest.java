package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DispatchTest {
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

  @Test
  void dispatchesExactlyAtDueAtAndNeverBefore() {
    TaskEnvelope task = Driver.task(T0 + 5_000);
    d.send(task);
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.PENDING);
    d.advanceTo(T0 + 4_900);
    d.advanceTo(T0 + 4_999);
    assertThat(d.dispatches()).isEmpty();

    d.advanceTo(T0 + 5_000);

    List<Dispatch> out = d.dispatches();
    assertThat(out).hasSize(1);
    Dispatch dispatch = out.get(0);
    assertThat(dispatch.id()).isEqualTo(task.id());
    assertThat(dispatch.attempt()).isEqualTo(1);
    assertThat(dispatch.dispatchedAt()).isEqualTo(T0 + 5_000);
    assertThat(dispatch.deadline()).isEqualTo(T0 + 5_000 + 5_000 + 10_000);
    assertThat(dispatch.routingKey()).isEqualTo(task.id());
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.DISPATCHED);
    assertThat(d.metrics.lateness).containsExactly(0L);
  }

  @Test
  void dispatchesAtOnceWhenAlreadyDue() {
    TaskEnvelope task = Driver.task(T0 - 1_000);
    d.send(task);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(task.id());
    assertThat(d.count("DISPATCHED")).isEqualTo(1);
    assertThat(d.count("PENDING")).isZero();
  }

  @Test
  void dropsAndCountsDuplicateTaskIds() {
    TaskEnvelope task = Driver.task(T0 + 1_000);
    d.send(task);
    d.send(task);
    d.send(task.withDueAt(T0));
    d.advanceTo(T0 + 1_000);
    assertThat(d.dispatches()).hasSize(1);
    assertThat(d.metrics.get("duplicate")).isEqualTo(2);
    assertThat(d.count("DISPATCHED")).isEqualTo(1);
  }

  @Test
  void waitsAsNoHandlerUntilTheTopicAppears() {
    TaskEnvelope task = Driver.task(T0);
    d.known.topics.remove(d.topics.handler(Driver.HANDLER));
    d.send(task);
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.NO_HANDLER);
    d.advance(5_000);
    assertThat(d.dispatches()).isEmpty();
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.NO_HANDLER);

    d.known.topics.add(d.topics.handler(Driver.HANDLER));
    d.advance(1_000);

    assertThat(d.dispatches()).extracting(Dispatch::attempt).containsExactly(1);
    assertThat(d.record(task.id()).state()).isEqualTo(TaskState.DISPATCHED);
    assertThat(d.count("NO_HANDLER")).isZero();
  }

  @Test
  void boundsEachScanAndCatchesUpOnTheNextTicks() {
    d.close();
    d = new Driver(dir.resolve("bounded"), 40);
    int n = 100;
    for (int i = 0; i < n; i++) {
      d.send(Driver.task(T0 + 1_000));
    }
    d.advanceTo(T0 + 1_000);
    assertThat(d.dispatches()).hasSize(40);
    d.advance(100);
    d.advance(100);
    assertThat(d.dispatches()).hasSize(60);
    assertThat(d.count("DISPATCHED")).isEqualTo(n);
    assertThat(d.count("PENDING")).isZero();
  }

  @Test
  void deadlinesFireAfterTheStreamTaskReopensEvenOneWhoseSearchEntryWasLost() {
    TaskEnvelope a = Driver.task(T0);
    TaskEnvelope b = Driver.task(T0);
    d.send(a);
    d.send(b);
    assertThat(d.dispatches()).hasSize(2);
    // b's search entry lost, as a kill -9 between the stores' flushes can leave it
    org.apache.kafka.streams.state.KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>
        search = d.driver.getKeyValueStore(Stores.TASK_INDEX);
    search.delete(TaskIndexKey.of(b.id(), d.record(b.id())));
    d.reopen(new org.apache.kafka.streams.processor.TaskId(0, 0)); // a reopen

    d.advance(5_000 + 10_000 + 1_000); // timeoutMs + timeout-grace, and a tick
    for (TaskEnvelope t : java.util.List.of(a, b)) {
      TaskRecord r = d.record(t.id());
      assertThat(r.state()).as(t.id()).isEqualTo(TaskState.RETRYING);
      assertThat(r.lastError().type()).isEqualTo("timeout");
    }
  }

  @Test
  void keepsOneIndexEntryPerPendingTaskAndTheDeadlineInMemory() {
    TaskEnvelope task = Driver.task(T0 + 1_000);
    d.send(task);
    assertThat(d.indexSize()).isEqualTo(1);
    d.advanceTo(T0 + 1_000);
    assertThat(d.indexSize()).as("the deadline is not a due-index entry").isZero();
    assertThat(d.record(task.id()).timerKind()).isEqualTo(TimerKind.DEADLINE);
  }

  @Test
  void aReplayedTaskHealsAnIndexEntryLostInACrash() {
    TaskEnvelope task = Driver.task(T0 + 1_000);
    d.send(task);
    d.advance(100); // the start-up pass that writes back lost timers is over
    KeyValueStore<Bytes, byte[]> index = d.driver.getKeyValueStore(Stores.DUE_INDEX);
    index.delete(DueIndexKey.of(T0 + 1_000, task.id())); // as if its changelog write was lost
    d.advanceTo(T0 + 1_000);
    assertThat(d.dispatches()).isEmpty();

    d.send(task); // at-least-once replays the input after the crash

    d.advance(100);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(task.id());
    assertThat(d.metrics.get("duplicate")).isEqualTo(1);
  }

  @Test
  void aPausedHandlersDueTasksWaitWhileOthersRunAndGoOutOnResume() {
    String other = "sms.send";
    d.known.topics.add(d.topics.handler(other));
    d.paused.add(Driver.HANDLER);
    TaskEnvelope held =
        Driver.task(
            Driver.HANDLER, T0, 3, RetryPolicy.fixed(java.time.Duration.ofSeconds(1)), List.of());
    TaskEnvelope free =
        Driver.task(other, T0, 3, RetryPolicy.fixed(java.time.Duration.ofSeconds(1)), List.of());
    d.send(held);
    d.send(free);
    d.advance(60_000);
    assertThat(d.dispatches(other)).extracting(Dispatch::id).containsExactly(free.id());
    assertThat(d.dispatches()).isEmpty();
    assertThat(d.record(held.id()).state()).isEqualTo(TaskState.PENDING);
    assertThat(d.record(held.id()).timerKind()).isEqualTo(TimerKind.QUEUED);
    assertThat(d.metrics.get("paused.held")).isEqualTo(1);

    d.paused.remove(Driver.HANDLER);
    d.advance(1_000);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(held.id());
    assertThat(d.record(held.id()).state()).isEqualTo(TaskState.DISPATCHED);
  }
}
