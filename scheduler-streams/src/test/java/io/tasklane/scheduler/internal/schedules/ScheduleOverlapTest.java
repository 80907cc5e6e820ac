package io.tasklane.scheduler.internal.schedules;

import static io.tasklane.scheduler.internal.Driver.HANDLER;
import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleDefinition.Overlap;
import io.tasklane.core.ScheduleTrigger;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskInterrupt;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.lifecycle.Outputs;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Overlap policies and manual triggers through the topology with the wall clock driven by hand. A
 * fire's finished tasks travel back to the schedule as {@code schedule-fire-done} records on {@code
 * tasks} keyed by the schedule's name (the driver feeds {@code tasks} back into the topology).
 */
class ScheduleOverlapTest {
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

  static ScheduleDefinition.Builder every10s(String name, Overlap overlap) {
    return ScheduleDefinition.builder()
        .name(name)
        .version(1)
        .handler(HANDLER)
        .every("10s")
        .overlap(overlap);
  }

  ScheduleState state(String name) {
    return d.schedule(name);
  }

  List<FireRecord.Outcome> outcomes(String name) {
    return state(name).fires().stream().map(FireRecord::outcome).toList();
  }

  void succeed(Dispatch x) {
    d.sendResult(x, TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1"));
  }

  static String fireId(String name, long at) {
    return TaskIds.forScheduleFire(name, at, -1);
  }

  @Test
  void skipIfRunningMakesNoTaskWhileTheLastFireRunsAndRecordsWhy() {
    d.send("s", every10s("s", Overlap.SKIP_IF_RUNNING).build());
    d.runTo(T0 + 25_000);
    List<Dispatch> first = d.dispatches();
    assertThat(first).extracting(x -> x.task().dueAt()).containsExactly(T0);
    assertThat(outcomes("s"))
        .containsExactly(
            FireRecord.Outcome.RUNNING, FireRecord.Outcome.SKIPPED, FireRecord.Outcome.SKIPPED);
    assertThat(state("s").fires().get(1).reason()).isEqualTo("running: fire " + fireId("s", T0));
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_OVERLAP_SKIPPED)).isEqualTo(2);

    succeed(first.get(0));
    assertThat(outcomes("s").get(0)).isEqualTo(FireRecord.Outcome.SUCCEEDED);
    assertThat(state("s").fires().get(0).tasks())
        .containsExactly(
            new FireRecord.FireTask(first.get(0).id(), first.get(0).id(), TaskState.SUCCEEDED));
    d.runTo(T0 + 35_000);
    assertThat(d.dispatches()).extracting(x -> x.task().dueAt()).containsExactly(T0 + 30_000);
  }

  @Test
  void queueLetsOneFireWaitSkipsFurtherOnesAsQueueFullAndRunsItWhenTheLastFinishes() {
    d.send("q", every10s("q", Overlap.QUEUE).build());
    d.runTo(T0 + 25_000);
    List<Dispatch> first = d.dispatches();
    assertThat(first).hasSize(1);
    assertThat(outcomes("q"))
        .containsExactly(
            FireRecord.Outcome.RUNNING, FireRecord.Outcome.QUEUED, FireRecord.Outcome.SKIPPED);
    assertThat(state("q").waiting()).isEqualTo(fireId("q", T0 + 10_000));
    assertThat(state("q").fires().get(2).reason()).startsWith("queue-full");
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_QUEUE_FULL)).isEqualTo(1);

    succeed(first.get(0));
    List<Dispatch> queued = d.dispatches();
    assertThat(queued)
        .extracting(Dispatch::id)
        .containsExactly(Driver.taskOf("q", fireId("q", T0 + 10_000)));
    FireRecord ran = state("q").fires().get(1);
    assertThat(ran.outcome()).isEqualTo(FireRecord.Outcome.RUNNING);
    assertThat(ran.latenessMs()).isEqualTo(15_000);
    assertThat(state("q").waiting()).isNull();
  }

  @Test
  void aFireWaitingWhenQueueBecomesAllowRunsAsSoonAsTheRunningOneFinishes() {
    d.send("w", every10s("w", Overlap.QUEUE).build());
    d.runTo(T0 + 15_000);
    List<Dispatch> first = d.dispatches();
    assertThat(outcomes("w"))
        .containsExactly(FireRecord.Outcome.RUNNING, FireRecord.Outcome.QUEUED);
    d.send("w", every10s("w", Overlap.ALLOW).version(2).startAt(T0 + 3_600_000).build());
    assertThat(state("w").waiting()).isEqualTo(fireId("w", T0 + 10_000));

    succeed(first.get(0)); // the running fire now lives in the fire log (ALLOW)
    assertThat(d.dispatches())
        .extracting(Dispatch::id)
        .containsExactly(Driver.taskOf("w", fireId("w", T0 + 10_000)));
    assertThat(state("w").waiting()).isNull();
  }

  @Test
  void replaceCancelsTheRunningTaskThroughTheCancelPathAndIgnoresItsLateResult() {
    d.send("r", every10s("r", Overlap.REPLACE).build());
    d.advanceTo(T0 + 100);
    Dispatch old = d.dispatches().get(0);
    d.runTo(T0 + 10_100);
    assertThat(d.dispatches())
        .extracting(Dispatch::id)
        .containsExactly(Driver.taskOf("r", fireId("r", T0 + 10_000)));
    assertThat(d.loopControl()).isEqualTo(1); // the cancel, keyed by the old task's routing key
    assertThat(d.record(old.id()).state()).isEqualTo(TaskState.CANCELLED);
    assertThat(d.record(old.id()).reason())
        .contains("replaced by fire " + fireId("r", T0 + 10_000));
    assertThat(outcomes("r"))
        .containsExactly(FireRecord.Outcome.CANCELLED, FireRecord.Outcome.RUNNING);
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_REPLACED)).isEqualTo(1);
    // The replaced task was running: its attempt is interrupted.
    assertThat(d.read(d.topics.interrupts()))
        .extracting(r -> WireCodec.decodeInterrupt(r.value()))
        .extracting(TaskInterrupt::id, TaskInterrupt::attempt)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(old.id(), old.attempt()));

    succeed(old); // the worker could not be stopped: its late result changes nothing
    assertThat(d.record(old.id()).state()).isEqualTo(TaskState.CANCELLED);
    assertThat(outcomes("r").get(0)).isEqualTo(FireRecord.Outcome.CANCELLED);
  }

  @Test
  void allowRunsFiresSideBySide() {
    d.send("a", every10s("a", Overlap.ALLOW).build());
    d.runTo(T0 + 25_000);
    assertThat(d.dispatches()).hasSize(3);
    assertThat(outcomes("a")).containsOnly(FireRecord.Outcome.RUNNING);
  }

  @Test
  void aTriggerFiresNowWithItsOwnIdOnceAndObeysTheOverlapPolicy() {
    d.send("t", every10s("t", Overlap.SKIP_IF_RUNNING).startAt(T0 + 3_600_000).build());
    d.advance(1_000);
    ScheduleTrigger trigger = ScheduleTrigger.of("t", "ops-1", d.now);
    d.send("t", trigger);
    d.send("t", trigger); // a replay
    d.advance(100);
    List<Dispatch> out = d.dispatches();
    assertThat(out)
        .extracting(Dispatch::id)
        .containsExactly(Driver.taskOf("t", TaskIds.forScheduleTrigger("t", "ops-1")));
    assertThat(out.get(0).task().headers())
        .containsEntry(ScheduleMachine.HEADER_FIRE_ID, TaskIds.forScheduleTrigger("t", "ops-1"));
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_TRIGGER_DUPLICATE)).isEqualTo(1);

    d.send("t", ScheduleTrigger.of("t", "ops-2", d.now)); // the first still runs
    d.advance(100);
    assertThat(d.dispatches()).isEmpty();
    assertThat(outcomes("t"))
        .containsExactly(FireRecord.Outcome.RUNNING, FireRecord.Outcome.SKIPPED);
    assertThat(state("t").fires().get(1).kind()).isEqualTo(FireRecord.Kind.TRIGGER);
  }

  @Test
  void aTriggerOfAnUnknownScheduleGoesToTheSchedulerDlt() {
    d.send("nobody", ScheduleTrigger.of("nobody", "ops-1", d.now));
    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.schedulerDlt());
    assertThat(dlt).extracting(TestRecord::key).containsExactly("nobody");
    assertThat(new String(dlt.get(0).headers().lastHeader(Outputs.ERROR_MESSAGE).value()))
        .contains("no schedule 'nobody' to trigger");
  }

  @Test
  void aPausedScheduleRecordsATriggerAsSkipped() {
    d.send("p", every10s("p", Overlap.ALLOW).enabled(false).build());
    d.send("p", ScheduleTrigger.of("p", "ops-1", d.now));
    d.advance(100);
    assertThat(d.dispatches()).isEmpty();
    assertThat(state("p").fires().get(0).reason()).isEqualTo("paused");
  }

  @Test
  void aFireTaskCancelledBeforeItArrivedStillFinishesItsFire() {
    d.send("e", every10s("e", Overlap.SKIP_IF_RUNNING).startAt(T0 + 3_600_000).build());
    String id = Driver.taskOf("e", TaskIds.forScheduleTrigger("e", "x"));
    d.sendControl(id, io.tasklane.core.CancelCommand.of(id, "early", d.now));
    d.send("e", ScheduleTrigger.of("e", "x", d.now));
    assertThat(outcomes("e")).containsExactly(FireRecord.Outcome.CANCELLED);
    d.send("e", ScheduleTrigger.of("e", "y", d.now));
    d.advance(100);
    assertThat(d.dispatches())
        .extracting(Dispatch::id)
        .containsExactly(Driver.taskOf("e", TaskIds.forScheduleTrigger("e", "y")));
  }

  @Test
  void aTriggerIdReusedAfterItLeftTheHistoryFinishesFromTheStoredTask() {
    d.send("u", every10s("u", Overlap.SKIP_IF_RUNNING).startAt(T0 + 3_600_000).build());
    d.send("u", ScheduleTrigger.of("u", "x", d.now));
    d.advance(100);
    Dispatch x = d.dispatches().get(0);
    succeed(x);
    d.send("u", every10s("u", Overlap.SKIP_IF_RUNNING).version(2).every("1s").build());
    d.runTo(d.now + 60_000); // one fire runs, 50+ are skipped: "x" leaves the history
    assertThat(FireHistory.find(state("u").fires(), TaskIds.forScheduleTrigger("u", "x"))).isNull();
    Dispatch running = d.dispatches().get(0);
    succeed(running);
    d.send("u", ScheduleTrigger.of("u", "x", d.now)); // admission drops the task as a duplicate
    assertThat(FireHistory.find(state("u").fires(), TaskIds.forScheduleTrigger("u", "x")).outcome())
        .isEqualTo(FireRecord.Outcome.SUCCEEDED);
  }
}
