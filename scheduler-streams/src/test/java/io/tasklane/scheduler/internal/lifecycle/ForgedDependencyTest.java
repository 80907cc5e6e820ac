package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.ControlCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.topology.ControlChecks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dependency protocol ({@code await}, {@code dependency-done}) is the scheduler's own: it
 * travels on {@code <ns>.dependencies}, which only the scheduler principal may write. The same
 * records on {@code <ns>.control} (which an operator principal may write) are dead-lettered and
 * change no state; ids that are not task ids are refused on either topic.
 */
class ForgedDependencyTest {
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

  private static String header(TestRecord<String, byte[]> r, String name) {
    Header h = r.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  @Test
  void anAwaitWithJunkIdsIsRefusedOnEitherTopicAndCreatesNoPlaceholder() {
    d.sendControl("junk-dep", ControlCommand.Await.of("junk-dep", "junk-waiter", "k"));
    String dep = UUID.randomUUID().toString();
    d.sendDependency(dep, ControlCommand.Await.of(dep, "../../etc", "k"));
    d.sendDependency(
        dep,
        ControlCommand.Await.probe(dep, UUID.randomUUID().toString(), "k", List.of("NOT-AN-ID")));

    assertThat(d.record("junk-dep")).isNull();
    assertThat(d.record(dep)).isNull();
    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.schedulerDlt());
    assertThat(dlt).extracting(r -> header(r, Outputs.REASON)).containsOnly("invalid");
    assertThat(dlt)
        .extracting(r -> header(r, Outputs.ERROR_MESSAGE))
        .containsExactly(
            "await refused: id 'junk-dep' is not a task id (a canonical lower-case UUID, 36"
                + " characters)",
            "await refused: waiterId '../../etc' is not a task id (a canonical lower-case UUID,"
                + " 36 characters)",
            "await refused: path[0] 'NOT-AN-ID' is not a task id (a canonical lower-case UUID,"
                + " 36 characters)");
    assertThat(d.loopControl()).isZero();
  }

  @Test
  void aForgedAwaitOnControlFillsNoWaiterListAndTheRealWaiterStillRuns() {
    TaskEnvelope dep = Driver.task(T0 + 60_000);
    d.send(dep);
    String unknown = UUID.randomUUID().toString();
    for (int i = 0; i < 3; i++) {
      String forged = UUID.randomUUID().toString();
      d.sendControl(dep.id(), ControlCommand.Await.of(dep.id(), forged, forged));
    }
    d.sendControl(unknown, ControlCommand.Await.of(unknown, dep.id(), dep.routingKey()));

    assertThat(d.record(dep.id()).waiters()).isEmpty();
    assertThat(d.record(unknown)).isNull(); // no placeholder kept for the retention
    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.schedulerDlt());
    assertThat(dlt).hasSize(4);
    assertThat(dlt)
        .extracting(r -> header(r, Outputs.REASON))
        .containsOnly(ControlChecks.SCHEDULER_ONLY);
    assertThat(header(dlt.get(0), Outputs.ERROR_MESSAGE))
        .startsWith("await on t.control: the dependency protocol is the scheduler's own");
    assertThat(d.metrics.get("dlt.control.scheduler-only")).isEqualTo(4);
    // The scheduler only asks the named waiters, which do not wait on anything: nothing changes.
    d.loopControl();
    assertThat(d.loopControl()).isZero();
    assertThat(d.record(dep.id()).waiters()).isEmpty();
    assertThat(d.record(unknown)).isNull();
    assertThat(d.record(dep.id()).state()).isEqualTo(TaskState.PENDING);

    TaskEnvelope w = waiter(dep.id());
    d.send(w);
    d.loopControl();
    assertThat(d.record(dep.id()).waiters()).extracting(Waiter::id).containsExactly(w.id());
    d.advanceTo(T0 + 60_000);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(dep.id());
    d.sendResult(TaskResult.succeeded(dep.id(), 1, d.now, d.now, "w"));
    d.loopControl();
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(w.id());
  }

  @Test
  void aForgedDependencyDoneOnControlLeavesTheWaitingTaskWaiting() {
    TaskEnvelope dep = Driver.task(T0 + 60_000);
    TaskEnvelope w = waiter(dep.id());
    d.send(dep);
    d.send(w);
    d.loopControl();

    d.sendControl(
        w.routingKey(),
        ControlCommand.DependencyDone.of(w.id(), dep.id(), TaskState.DEAD, "forged"));
    d.sendControl(
        w.routingKey(),
        ControlCommand.DependencyDone.of(w.id(), dep.id(), TaskState.SUCCEEDED, null));

    assertThat(d.record(w.id()).state()).isEqualTo(TaskState.WAITING);
    assertThat(d.record(w.id()).waitingOn()).containsExactly(dep.id());
    assertThat(d.read(d.topics.schedulerDlt()))
        .extracting(r -> header(r, Outputs.REASON))
        .containsExactly(ControlChecks.SCHEDULER_ONLY, ControlChecks.SCHEDULER_ONLY);
    // The waiter only repeats its own await; the dependency already knows it.
    d.loopControl();
    assertThat(d.loopControl()).isZero();
    assertThat(d.record(w.id()).state()).isEqualTo(TaskState.WAITING);
    assertThat(d.record(dep.id()).waiters()).hasSize(1);
    assertThat(d.dispatches()).isEmpty();

    // The scheduler's own path still completes the dependency.
    d.advanceTo(T0 + 60_000);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(dep.id());
    d.sendResult(TaskResult.succeeded(dep.id(), 1, d.now, d.now, "w"));
    assertThat(d.loopControl()).isEqualTo(1);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(w.id());
  }

  @Test
  void aDependencyDoneForADependencyTheTaskDoesNotWaitOnIsIgnored() {
    TaskEnvelope dep = Driver.task(T0 + 60_000);
    TaskEnvelope w = waiter(dep.id());
    d.send(dep);
    d.send(w);
    d.loopControl();

    String other = UUID.randomUUID().toString();
    d.sendDependency(
        w.routingKey(), ControlCommand.DependencyDone.of(w.id(), other, TaskState.DEAD, "x"));

    assertThat(d.record(w.id()).state()).isEqualTo(TaskState.WAITING);
    assertThat(d.metrics.get("dependency-done.ignored")).isEqualTo(1);
  }

  /** Stores {@code task} as an older scheduler left it: WAITING on its dependencies. */
  private void storeWaiting(TaskEnvelope task) {
    TaskRecord.Edit e = TaskRecord.empty().edit();
    e.task = task;
    e.state = TaskState.WAITING;
    e.dueAt = task.dueAt();
    e.updatedAt = d.now;
    e.waitingOn.addAll(task.dependsOn());
    KeyValueStore<String, TaskRecord> tasks = d.driver.getKeyValueStore(Stores.TASKS);
    tasks.put(task.id(), e.build());
  }

  @Test
  void anAwaitAnOlderSchedulerLeftOnControlStillRegistersItsWaiterThroughTheSchedulersOwnPath() {
    TaskEnvelope dep = Driver.task(T0 + 60_000);
    d.send(dep);
    // An older scheduler admitted w and wrote its await to control.
    TaskEnvelope w = waiter(dep.id());
    storeWaiting(w);
    d.sendControl(dep.id(), ControlCommand.Await.of(dep.id(), w.id(), w.routingKey()));
    d.loopControl();

    assertThat(d.read(d.topics.schedulerDlt()))
        .extracting(r -> header(r, Outputs.REASON))
        .containsExactly(ControlChecks.SCHEDULER_ONLY);
    assertThat(d.record(dep.id()).waiters()).extracting(Waiter::id).containsExactly(w.id());
    d.advanceTo(T0 + 60_000);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(dep.id());
    d.sendResult(TaskResult.succeeded(dep.id(), 1, d.now, d.now, "w"));
    d.loopControl();
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(w.id());
  }

  @Test
  void aDependencyDoneAnOlderSchedulerLeftOnControlStillReleasesItsWaiterThroughTheOwnPath() {
    TaskEnvelope dep = Driver.task(T0);
    d.send(dep);
    d.sendResult(TaskResult.succeeded(dep.id(), 1, d.now, d.now, "w"));
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(dep.id());
    // An older scheduler had w waiting and wrote dep's answer to control.
    TaskEnvelope w = waiter(dep.id());
    storeWaiting(w);
    d.sendControl(
        w.routingKey(),
        ControlCommand.DependencyDone.of(w.id(), dep.id(), TaskState.SUCCEEDED, null));
    d.loopControl();

    assertThat(d.read(d.topics.schedulerDlt()))
        .extracting(r -> header(r, Outputs.REASON))
        .containsExactly(ControlChecks.SCHEDULER_ONLY);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(w.id());
  }

  @Test
  void operatorCommandsWithJunkIdsAreRefusedAndLeaveNoTombstone() {
    d.sendControl("junk", io.tasklane.core.CancelCommand.of("junk", "forged", d.now, "mallory"));
    d.sendControl(null, ControlCommand.Trigger.of(null, d.now));
    d.send("junk2", io.tasklane.core.CancelCommand.of("junk2", "forged", d.now));
    String dep = UUID.randomUUID().toString();
    d.sendDependency(dep, io.tasklane.core.CancelCommand.of(dep, "forged", d.now, "mallory"));

    assertThat(d.record("junk")).isNull();
    assertThat(d.record("junk2")).isNull();
    assertThat(d.record(dep)).isNull();
    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.schedulerDlt());
    assertThat(dlt)
        .extracting(r -> header(r, Outputs.REASON))
        .containsExactly("invalid", "invalid", "invalid", ControlChecks.WRONG_TOPIC);
    assertThat(header(dlt.get(1), Outputs.ERROR_MESSAGE))
        .isEqualTo("trigger refused: id is missing (a canonical lower-case UUID, 36 characters)");
  }
}
