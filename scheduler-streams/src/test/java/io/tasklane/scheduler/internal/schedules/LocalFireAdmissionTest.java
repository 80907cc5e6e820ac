package io.tasklane.scheduler.internal.schedules;

import static io.tasklane.scheduler.internal.Driver.HANDLER;
import static io.tasklane.scheduler.internal.Driver.PARTITIONS;
import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleFireDone;
import io.tasklane.core.ScheduleTrigger;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unsharded fire's task gets the variant of its id that lands in its schedule's partition and is
 * admitted there without a record on {@code <ns>.tasks}; its finished-task notice is applied there
 * at once. The driver runs stream task 0 of {@link Driver#PARTITIONS}: a schedule whose name lands
 * in partition 0 takes the local path; one whose name lands elsewhere (in production another stream
 * task, here looped back into task 0) goes through the topic as before.
 */
class LocalFireAdmissionTest {
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

  /** The first name {@code prefix0}, {@code prefix1}, … whose partition is (or is not) 0. */
  static String name(String prefix, boolean inPartitionZero) {
    return IntStream.range(0, 1_000)
        .mapToObj(i -> prefix + i)
        .filter(n -> (TaskIds.partitionOf(n, PARTITIONS) == 0) == inPartitionZero)
        .findFirst()
        .orElseThrow();
  }

  static ScheduleDefinition.Builder every10s(String name) {
    return ScheduleDefinition.builder().name(name).version(1).handler(HANDLER).every("10s");
  }

  /** The records written to {@code <ns>.tasks} since the last call, decoded. */
  List<TaskTopicRecord> tasksTopic() {
    return d.read(d.topics.tasks()).stream()
        .map(r -> WireCodec.decodeTaskRecord(r.value()))
        .toList();
  }

  @Test
  void aFireOfAScheduleInThisPartitionIsAdmittedHereAndItsNoticeAppliedAtOnce() {
    String here = name("here", true);
    d.send(here, every10s(here).build());
    tasksTopic();
    d.advanceTo(T0 + 100);

    List<Dispatch> sent = d.dispatches();
    String fire = TaskIds.forScheduleFire(here, T0, -1);
    assertThat(sent).extracting(Dispatch::id).containsExactly(Driver.taskOf(here, fire));
    assertThat(TaskIds.partitionOf(sent.get(0).id(), PARTITIONS)).isZero();
    assertThat(sent.get(0).task().headers()).containsEntry(ScheduleMachine.HEADER_FIRE_ID, fire);
    assertThat(tasksTopic()).as("no trip through the tasks topic").isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.ADMITTED_HERE)).isEqualTo(1);
    assertThat(d.metrics.get(SchedulerEvent.ADMITTED)).isEqualTo(1);

    Dispatch x = sent.get(0);
    d.sendResult(x, TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1"));
    assertThat(tasksTopic()).as("the notice is applied, not sent").isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_FIRE_DONE)).isEqualTo(1);
    FireRecord done = d.schedule(here).fires().get(0);
    assertThat(done.fireId()).isEqualTo(fire);
    assertThat(done.outcome()).isEqualTo(FireRecord.Outcome.SUCCEEDED);
  }

  @Test
  void aFireOfAScheduleInAnotherPartitionGoesThroughTheTopicWithItsPlacedId() {
    String there = name("there", false);
    d.send(there, every10s(there).build());
    tasksTopic();
    d.advanceTo(T0 + 100);

    String fire = TaskIds.forScheduleFire(there, T0, -1);
    String task = Driver.taskOf(there, fire);
    assertThat(TaskIds.partitionOf(task, PARTITIONS))
        .isEqualTo(TaskIds.partitionOf(there, PARTITIONS))
        .isNotZero();
    List<TaskTopicRecord> written = tasksTopic();
    assertThat(written).hasSize(1);
    assertThat(((TaskEnvelope) written.get(0)).id()).isEqualTo(task);
    assertThat(d.metrics.get(SchedulerEvent.ADMITTED_HERE)).isZero();
    Dispatch x = d.dispatches().get(0);
    assertThat(x.id()).isEqualTo(task);

    d.sendResult(x, TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1"));
    List<TaskTopicRecord> notices = tasksTopic();
    assertThat(notices).hasSize(1).first().isInstanceOf(ScheduleFireDone.class);
    assertThat(d.schedule(there).fires().get(0).outcome()).isEqualTo(FireRecord.Outcome.SUCCEEDED);
  }

  @Test
  void aQueuedFireStartedByALocalNoticeRunsAndATriggerRepeatIsNotAdmittedTwice() {
    String q = name("queue", true);
    d.send(q, every10s(q).overlap(ScheduleDefinition.Overlap.QUEUE).build());
    d.runTo(T0 + 15_000);
    List<Dispatch> first = d.dispatches();
    assertThat(first).hasSize(1);
    Dispatch x = first.get(0);
    d.sendResult(x, TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1"));
    assertThat(d.dispatches())
        .as("the waiting fire runs once the notice is applied")
        .extracting(Dispatch::id)
        .containsExactly(Driver.taskOf(q, TaskIds.forScheduleFire(q, T0 + 10_000, -1)));

    d.send(q, ScheduleTrigger.of(q, "ops-1", d.now));
    d.send(q, ScheduleTrigger.of(q, "ops-1", d.now));
    d.advance(100);
    assertThat(d.metrics.get(SchedulerEvent.DUPLICATE)).isZero();
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_TRIGGER_DUPLICATE)).isEqualTo(1);
  }
}
