package io.tasklane.scheduler.internal.schedules;

import static io.tasklane.scheduler.internal.Driver.HANDLER;
import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleDefinition.Overlap;
import io.tasklane.core.ScheduleDefinition.Routing;
import io.tasklane.core.ScheduleTrigger;
import io.tasklane.core.Shard;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskResult;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.api.ScheduleView;
import io.tasklane.scheduler.internal.lifecycle.DispatchPartitioner;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Children, ALL_WORKERS, the spread of shard tasks over handler partitions and the fire history's
 * bounds, through the topology with the wall clock driven by hand.
 */
class ScheduleFanOutTest {
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

  void define(ScheduleDefinition s) {
    d.send(s.name(), s);
  }

  static ScheduleDefinition.Builder every10s(String name) {
    return ScheduleDefinition.builder().name(name).version(1).handler(HANDLER).every("10s");
  }

  /** Answers {@code x}'s first attempt with a permanent failure: its task goes DEAD. */
  void failPermanently(Dispatch x) {
    d.sendResult(
        x,
        TaskResult.failed(
            x.id(), 1, io.tasklane.core.Outcome.PERMANENT_FAILURE, null, null, d.now, d.now, "w1"));
  }

  ScheduleState state(String name) {
    return d.schedule(name);
  }

  @Test
  void aSucceededFireStartsEachChildOnceAndAFailedOneStartsNone() {
    define(every10s("child").every("1d").startAt(T0 + 864_000_000L).build());
    define(every10s("parent").children(List.of("child")).build());
    d.advanceTo(T0 + 100);
    Dispatch parent = d.dispatches().get(0);
    d.sendResult(parent, TaskResult.succeeded(parent.id(), 1, d.now, d.now, "w1"));
    String parentFire = TaskIds.forScheduleFire("parent", T0, -1);
    List<Dispatch> child = d.dispatches();
    assertThat(child)
        .extracting(Dispatch::id)
        .containsExactly(Driver.taskOf("child", TaskIds.forScheduleChild("child", parentFire)));
    assertThat(child.get(0).task().headers())
        .containsEntry(ScheduleMachine.HEADER_PARENT_FIRE, parentFire)
        .containsEntry(ScheduleMachine.HEADER_SCHEDULE, "child");
    FireRecord childFire = state("child").fires().get(0);
    assertThat(childFire.kind()).isEqualTo(FireRecord.Kind.CHILD);
    assertThat(childFire.parentFire()).isEqualTo(parentFire);
    assertThat(childFire.depth()).isEqualTo(1);

    d.send("child", ScheduleTrigger.child("child", "parent", parentFire, 1, d.now)); // a replay
    assertThat(d.dispatches()).isEmpty();

    d.advanceTo(T0 + 10_100);
    Dispatch second = d.dispatches().get(0);
    failPermanently(second);
    assertThat(d.dispatches()).isEmpty();
    assertThat(state("parent").fires().get(1).outcome()).isEqualTo(FireRecord.Outcome.DEAD);
    assertThat(state("child").fires()).hasSize(1);
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_CHILD_STARTED)).isEqualTo(1);
  }

  @Test
  void aDeadFireWhoseTaskIsRetriedAndSucceedsBecomesSucceededAndStartsItsChildrenOnce() {
    define(every10s("child").every("1d").startAt(T0 + 864_000_000L).build());
    define(every10s("parent").children(List.of("child")).build());
    d.advanceTo(T0 + 100);
    Dispatch parent = d.dispatches().get(0);
    failPermanently(parent);
    String parentFire = TaskIds.forScheduleFire("parent", T0, -1);
    assertThat(d.dispatches()).isEmpty();
    assertThat(state("parent").fires())
        .extracting(FireRecord::outcome)
        .containsExactly(FireRecord.Outcome.DEAD);
    assertThat(
            d.driver
                .<String, ScheduleState>getKeyValueStore(Stores.SCHEDULES)
                .get("parent")
                .fires())
        .as("the finished fire lives in the fire log, not in the schedule's state")
        .isEmpty();

    d.advance(1_000);
    d.sendControl(parent.id(), io.tasklane.core.ControlCommand.RetryDead.of(parent.id(), d.now));
    Dispatch retried = d.dispatches().get(0);
    assertThat(retried.attempt()).isEqualTo(2);
    d.sendResult(retried, TaskResult.succeeded(retried.id(), 2, d.now, d.now, "w1"));

    assertThat(d.dispatches())
        .extracting(Dispatch::id)
        .containsExactly(Driver.taskOf("child", TaskIds.forScheduleChild("child", parentFire)));
    FireRecord fire = state("parent").fires().get(0);
    assertThat(fire.fireId()).isEqualTo(parentFire);
    assertThat(fire.outcome()).isEqualTo(FireRecord.Outcome.SUCCEEDED);
    assertThat(fire.tasks())
        .extracting(FireRecord.FireTask::state)
        .containsExactly(io.tasklane.core.TaskState.SUCCEEDED);
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_CHILD_STARTED)).isEqualTo(1);
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_FIRE_DONE_UNKNOWN)).isZero();

    d.sendResult(retried, TaskResult.succeeded(retried.id(), 2, d.now, d.now, "w1")); // a replay
    assertThat(d.dispatches()).isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_CHILD_STARTED)).isEqualTo(1);
  }

  @Test
  void allWorkersMakesOneTaskPerLiveConsumerOnDistinctPartitions() {
    d.workers.consumers.put(HANDLER, 4);
    d.workers.partitions.put(HANDLER, 6);
    define(every10s("all").routing(Routing.ALL_WORKERS).build());
    d.advanceTo(T0 + 100);
    List<Dispatch> out = d.dispatches();
    assertThat(out)
        .extracting(x -> x.task().shard())
        .containsExactlyInAnyOrder(
            new Shard(0, 4), new Shard(1, 4), new Shard(2, 4), new Shard(3, 4));
    assertThat(partitions(out, 6)).doesNotHaveDuplicates();
  }

  @Test
  void allWorkersFallsBackToOneTaskWhenTheCountIsUnknown() {
    define(every10s("all").routing(Routing.ALL_WORKERS).build());
    d.advanceTo(T0 + 100);
    assertThat(d.dispatches()).extracting(x -> x.task().shard()).containsExactly(new Shard(0, 1));
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_WORKERS_UNKNOWN)).isEqualTo(1);
  }

  @Test
  void broadcastShardsLandOnDistinctHandlerPartitions() {
    d.workers.partitions.put(HANDLER, 12);
    define(every10s("fan").routing(Routing.BROADCAST).shards(6).build());
    d.advanceTo(T0 + 100);
    List<Dispatch> out = d.dispatches();
    assertThat(out).hasSize(6);
    assertThat(partitions(out, 12)).doesNotHaveDuplicates();
    // a sharded fire's results come back keyed by each task's routing key and finish the fire
    for (Dispatch x : out) {
      d.sendResult(x, TaskResult.succeeded(x.id(), 1, d.now, d.now, "w1"));
    }
    assertThat(state("fan").fires().get(0).outcome()).isEqualTo(FireRecord.Outcome.SUCCEEDED);
  }

  /** The handler partition each dispatch goes to (the topology's partitioner, 6 partitions). */
  static List<Integer> partitions(List<Dispatch> out, int handlerPartitions) {
    DispatchPartitioner p = new DispatchPartitioner(6);
    return out.stream().map(x -> p.partition(x.routingKey(), x.id(), handlerPartitions)).toList();
  }

  @Test
  void theHistoryKeepsFiftyFinishedFiresAndTheRunningOneAndTheViewListsTheNextFive() {
    define(
        ScheduleDefinition.builder()
            .name("h")
            .version(1)
            .handler(HANDLER)
            .every("1s")
            .overlap(Overlap.SKIP_IF_RUNNING)
            .build());
    d.runTo(T0 + 70_000);
    ScheduleState s = state("h");
    assertThat(s.fires()).hasSize(FireHistory.KEEP + 1);
    assertThat(s.fires().get(0).outcome()).isEqualTo(FireRecord.Outcome.RUNNING);
    JsonNode view = WireCodec.readTree(ScheduleView.json("h", s, d.workers));
    assertThat(view.get("fires")).hasSize(51);
    assertThat(view.get("fires").get(0).get("fireAt").asLong()).isEqualTo(T0 + 70_000);
    assertThat(view.get("fires").get(0).get("outcome").asText()).isEqualTo("SKIPPED");
    assertThat(view.get("fires").get(50).get("tasks").get(0).get("state").asText())
        .isEqualTo("RUNNING");
    assertThat(view.get("nextFires"))
        .extracting(JsonNode::asText)
        .containsExactly(
            Instant.ofEpochMilli(T0 + 71_000).toString(),
            Instant.ofEpochMilli(T0 + 72_000).toString(),
            Instant.ofEpochMilli(T0 + 73_000).toString(),
            Instant.ofEpochMilli(T0 + 74_000).toString(),
            Instant.ofEpochMilli(T0 + 75_000).toString());
  }
}
