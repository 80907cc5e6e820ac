package io.tasklane.scheduler.internal.schedules;

import static io.tasklane.scheduler.internal.Driver.HANDLER;
import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleDefinition.Overlap;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.lifecycle.TimerKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schedule's {@code orderingKey} or {@code concurrencyKey} (routing ONE): each fire's task is
 * routed by the key and takes its turn in the key's lane with the handler's ordinary tasks of the
 * key; the fire's history keeps the key as the task's routing key, which its cancel is sent under.
 */
class ScheduleLaneKeysTest {
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

  static ScheduleDefinition.Builder every10s(String name) {
    return ScheduleDefinition.builder().name(name).version(1).handler(HANDLER).every("10s");
  }

  static String fireTask(String name, long fireAt) {
    return Driver.taskOf(name, TaskIds.forScheduleFire(name, fireAt, -1));
  }

  private static TaskEnvelope ordinary(String orderingKey) {
    return Driver.task(T0 - 1_000, 3, RetryPolicy.fixed(Duration.ofSeconds(10)), List.of())
        .toBuilder()
        .orderingKey(orderingKey)
        .build();
  }

  private void succeed(Dispatch x) {
    d.sendResult(x, TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1"));
  }

  @Test
  void aFireWaitsInItsOrderedLaneBehindARunningTaskOfTheKeyAndRunsAfterItSucceeds() {
    TaskEnvelope running = ordinary("k");
    d.send(running);
    List<Dispatch> first = d.dispatches();
    assertThat(first).extracting(Dispatch::id).containsExactly(running.id());

    d.send("sync", every10s("sync").orderingKey("k").build());
    d.advanceTo(T0 + 100);
    String task = fireTask("sync", T0);
    assertThat(d.dispatches()).as("the lane is held by the running task").isEmpty();
    assertThat(d.record(task).state()).isEqualTo(TaskState.PENDING);
    assertThat(d.record(task).timerKind()).isEqualTo(TimerKind.LANE);
    assertThat(d.record(task).task().orderingKey()).isEqualTo("k");
    FireRecord fire = d.schedule("sync").fires().get(0);
    assertThat(fire.outcome()).isEqualTo(FireRecord.Outcome.RUNNING);
    assertThat(fire.tasks()).containsExactly(new FireRecord.FireTask(task, "k", null));

    succeed(first.get(0));
    List<Dispatch> next = d.dispatches();
    assertThat(next).extracting(Dispatch::id).containsExactly(task);
    assertThat(next.get(0).routingKey()).isEqualTo("k");

    succeed(next.get(0));
    assertThat(d.schedule("sync").fires().get(0).outcome()).isEqualTo(FireRecord.Outcome.SUCCEEDED);
  }

  @Test
  void aFireWithAConcurrencyKeyCountsAgainstTheKeysLimit() {
    d.maxPerKey.put(HANDLER, 1);
    TaskEnvelope running =
        Driver.task(T0 - 1_000).toBuilder()
            .options(TaskOptions.builder().concurrencyKey("tenant-1").build())
            .build();
    d.send(running);
    List<Dispatch> first = d.dispatches();
    assertThat(first).extracting(Dispatch::id).containsExactly(running.id());

    d.send("tenant", every10s("tenant").concurrencyKey("tenant-1").build());
    d.advanceTo(T0 + 100);
    String task = fireTask("tenant", T0);
    assertThat(d.dispatches()).as("the key's one place is taken").isEmpty();
    assertThat(d.record(task).task().options().concurrencyKey()).isEqualTo("tenant-1");
    assertThat(d.schedule("tenant").fires().get(0).tasks())
        .containsExactly(new FireRecord.FireTask(task, "tenant-1", null));

    succeed(first.get(0));
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(task);
  }

  @Test
  void aFiresTaskCarriesTheSchedulesPriority() {
    d.send("urgent", every10s("urgent").priority(9).build());
    d.send("plain", every10s("plain").build());
    d.advanceTo(T0 + 100);
    assertThat(d.record(fireTask("urgent", T0)).task().options().priority()).isEqualTo(9);
    assertThat(d.record(fireTask("plain", T0)).task().options().priority()).isNull();
  }

  @Test
  void aReplacedFiresCancelIsSentUnderTheKeyAndFreesTheLaneForTheNextFire() {
    d.send("swap", every10s("swap").orderingKey("k").overlap(Overlap.REPLACE).build());
    d.advanceTo(T0 + 100);
    Dispatch old = d.dispatches().get(0);
    assertThat(old.id()).isEqualTo(fireTask("swap", T0));

    d.runTo(T0 + 10_100); // the driver feeds the control topic back in: the cancel is applied
    var cancels = d.read(d.topics.control());
    assertThat(cancels).hasSize(1);
    assertThat(cancels.get(0).key()).as("sent under the task's routing key").isEqualTo("k");
    assertThat(WireCodec.decodeControl(cancels.get(0).value()))
        .isInstanceOfSatisfying(CancelCommand.class, c -> assertThat(c.id()).isEqualTo(old.id()));
    assertThat(d.record(old.id()).state()).isEqualTo(TaskState.CANCELLED);
    assertThat(d.dispatches())
        .as("the cancel freed the lane")
        .extracting(Dispatch::id, Dispatch::routingKey)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(fireTask("swap", T0 + 10_000), "k"));
  }
}
