package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lanes: ordered lanes (one task at a time, in order, across retries; DEAD blocks or skips; delays
 * join at their due time; cancel and discard release), limits per concurrency key, and turns in
 * round-robin between keys when a handler is saturated.
 */
class LanesTest {
  static final int MAX = 3;

  @TempDir Path dir;
  Driver d;

  @BeforeEach
  void start() {
    d = new Driver(dir, 1_000, MAX);
  }

  @AfterEach
  void stop() {
    d.close();
  }

  private static TaskEnvelope ordered(String key, long dueAt, int maxAttempts) {
    return Driver.task(dueAt, maxAttempts, RetryPolicy.fixed(Duration.ofSeconds(10)), List.of())
        .toBuilder()
        .orderingKey(key)
        .build();
  }

  private static TaskEnvelope keyed(String key) {
    return Driver.task(T0 - 1_000).toBuilder()
        .options(TaskOptions.builder().concurrencyKey(key).build())
        .build();
  }

  private List<TaskEnvelope> sendOrdered(String key, int n) {
    List<TaskEnvelope> sent = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      TaskEnvelope t = ordered(key, T0 - 1_000, 3);
      d.send(t);
      sent.add(t);
    }
    return sent;
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

  private static List<String> ids(List<Dispatch> ds) {
    return ds.stream().map(Dispatch::id).toList();
  }

  @Test
  void anOrderedLaneRunsItsTasksOneAfterAnotherInEnqueueOrder() {
    List<TaskEnvelope> a = sendOrdered("order-1", 3);
    List<TaskEnvelope> b = sendOrdered("order-2", 1);

    List<Dispatch> first = d.dispatches();
    assertThat(ids(first)).containsExactly(a.get(0).id(), b.get(0).id());
    TaskRecord waiting = d.record(a.get(1).id());
    assertThat(waiting.state()).isEqualTo(TaskState.PENDING);
    assertThat(waiting.timerKind()).isEqualTo(TimerKind.LANE);
    assertThat(first.get(0).routingKey()).isEqualTo("order-1");

    succeed(first.get(0));
    List<Dispatch> second = d.dispatches();
    assertThat(ids(second)).as("released at once by the result").containsExactly(a.get(1).id());

    d.advance(1_000);
    assertThat(d.dispatches()).as("the lane is held by the second task").isEmpty();
    succeed(second.get(0));
    assertThat(ids(d.dispatches())).containsExactly(a.get(2).id());
  }

  @Test
  void aRetryingTaskHoldsItsLaneAndOtherKeysDoNotWait() {
    List<TaskEnvelope> a = sendOrdered("order-1", 2);
    Dispatch x = d.dispatches().get(0);
    fail(x);
    assertThat(d.record(a.get(0).id()).state()).isEqualTo(TaskState.RETRYING);

    TaskEnvelope other = sendOrdered("order-2", 1).get(0);
    assertThat(ids(d.dispatches())).as("another key is not held up").containsExactly(other.id());

    d.advance(5_000);
    assertThat(d.dispatches()).as("the retrying task keeps the lane").isEmpty();
    d.advance(6_000);
    List<Dispatch> retry = d.dispatches();
    assertThat(retry)
        .extracting(Dispatch::id, Dispatch::attempt)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(a.get(0).id(), 2));
    succeed(retry.get(0));
    assertThat(ids(d.dispatches())).containsExactly(a.get(1).id());
  }

  @Test
  void aDeadTaskBlocksItsLaneUntilRetriedOrDiscarded() {
    TaskEnvelope head = ordered("order-1", T0 - 1_000, 1);
    d.send(head);
    TaskEnvelope next = sendOrdered("order-1", 1).get(0);
    fail(d.dispatches().get(0));
    assertThat(d.record(head.id()).state()).isEqualTo(TaskState.DEAD);

    d.advance(2_000);
    assertThat(d.dispatches()).as("BLOCK: the lane waits for an operator").isEmpty();

    d.sendControl("order-1", ControlCommand.RetryDead.of(head.id(), d.now));
    List<Dispatch> again = d.dispatches();
    assertThat(ids(again)).as("the retried task runs first").containsExactly(head.id());
    fail(again.get(0));
    assertThat(d.record(head.id()).state()).isEqualTo(TaskState.DEAD);
    assertThat(d.dispatches()).isEmpty();

    d.sendControl("order-1", ControlCommand.Discard.of(head.id(), d.now));
    assertThat(ids(d.dispatches())).as("discarded: the lane moves on").containsExactly(next.id());
  }

  @Test
  void underSkipADeadTaskReleasesItsLane() {
    d.skipDead.add(Driver.HANDLER);
    TaskEnvelope head = ordered("order-1", T0 - 1_000, 1);
    d.send(head);
    TaskEnvelope next = sendOrdered("order-1", 1).get(0);
    fail(d.dispatches().get(0));

    assertThat(d.record(head.id()).state()).isEqualTo(TaskState.DEAD);
    assertThat(ids(d.dispatches())).containsExactly(next.id());
  }

  @Test
  void aTaskWaitingForItsHandlerTopicKeepsItsPlace() {
    String topic = d.topics.handler(Driver.HANDLER);
    d.known.topics.remove(topic);
    TaskEnvelope first = sendOrdered("order-1", 1).get(0);
    assertThat(d.record(first.id()).state()).isEqualTo(TaskState.NO_HANDLER);

    d.known.topics.add(topic);
    TaskEnvelope second = sendOrdered("order-1", 1).get(0);
    assertThat(d.dispatches()).as("the first still holds the lane").isEmpty();

    d.advance(1_100); // the NO_HANDLER re-check
    List<Dispatch> out = d.dispatches();
    assertThat(ids(out)).containsExactly(first.id());
    succeed(out.get(0));
    assertThat(ids(d.dispatches())).containsExactly(second.id());
  }

  @Test
  void aDelayedTaskJoinsItsLaneAtItsDueTime() {
    TaskEnvelope later = ordered("order-1", T0 + 5_000, 3);
    d.send(later);
    TaskEnvelope now = sendOrdered("order-1", 1).get(0);
    List<Dispatch> first = d.dispatches();
    assertThat(ids(first)).as("the task due first goes first").containsExactly(now.id());

    d.advance(6_000);
    assertThat(d.dispatches()).as("due, but the lane is held").isEmpty();
    assertThat(d.record(later.id()).timerKind()).isEqualTo(TimerKind.LANE);
    succeed(first.get(0));
    assertThat(ids(d.dispatches())).containsExactly(later.id());
  }

  @Test
  void cancelReleasesTheLaneAndTakesAWaitingTaskOutOfIt() {
    List<TaskEnvelope> a = sendOrdered("order-1", 3);
    d.dispatches();

    d.send("order-1", CancelCommand.of(a.get(1).id(), "not wanted", d.now));
    assertThat(d.record(a.get(1).id()).state()).isEqualTo(TaskState.CANCELLED);
    assertThat(d.dispatches()).isEmpty();

    d.send("order-1", CancelCommand.of(a.get(0).id(), "stop", d.now));
    assertThat(ids(d.dispatches()))
        .as("the running one's cancel frees the lane")
        .containsExactly(a.get(2).id());
  }

  @Test
  void aLimitPerKeyRunsAtMostThatManyTasksOfAKeyAtOnce() {
    d.maxPerKey.put(Driver.HANDLER, 2);
    List<TaskEnvelope> k = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      k.add(keyed("tenant-7"));
      d.send(k.get(i));
    }
    TaskEnvelope other = keyed("tenant-8");
    d.send(other);

    List<Dispatch> first = d.dispatches();
    assertThat(ids(first)).containsExactly(k.get(0).id(), k.get(1).id(), other.id());
    fail(first.get(0)); // a keyed task's retry gives its place back
    assertThat(ids(d.dispatches())).containsExactly(k.get(2).id());
    d.advance(11_000);
    assertThat(d.dispatches()).as("its retry waits behind the key's others").isEmpty();
    succeed(first.get(1));
    assertThat(ids(d.dispatches())).containsExactly(k.get(3).id());
  }

  @Test
  void aSaturatedHandlerReleasesWaitingTasksInTurnAcrossKeys() {
    List<TaskEnvelope> big = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      big.add(keyed("big"));
      d.send(big.get(i));
    }
    List<Dispatch> first = d.dispatches();
    assertThat(first).hasSize(MAX);
    TaskEnvelope quietA = keyed("quiet-a");
    TaskEnvelope quietB = keyed("quiet-b");
    TaskEnvelope plain = Driver.task(T0 - 1_000);
    d.send(quietA);
    d.send(quietB);
    d.send(plain);
    assertThat(d.dispatches()).isEmpty();

    first.forEach(this::succeed);
    d.advance(100);
    List<String> released = ids(d.dispatches());
    assertThat(released).hasSize(MAX).contains(quietA.id(), quietB.id());
    assertThat(released.stream().filter(id -> big.stream().anyMatch(t -> t.id().equals(id))))
        .hasSize(1);
  }

  @Test
  void aWeightedKeyTakesThatManyTasksInItsTurn() {
    d.weights.put("gold-", 2);
    List<String> gold = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      TaskEnvelope g = keyed("gold-1");
      gold.add(g.id());
      d.send(g);
      d.send(keyed("bronze-1"));
    }
    int goldReleased = 0;
    int released = 0;
    List<Dispatch> out = d.dispatches(); // the first MAX, before the handler was saturated
    for (int round = 0; round < 10; round++) {
      out.forEach(this::succeed);
      d.advance(100);
      out = d.dispatches();
      released += out.size();
      goldReleased += (int) out.stream().filter(x -> gold.contains(x.id())).count();
    }
    assertThat(released).isEqualTo(10 * MAX);
    // two turns of gold-1 for each of bronze-1: 20 of 30 (without the weight, 15)
    assertThat(goldReleased).isBetween(19, 21);
  }

  @Test
  void aReopenedStreamTaskKeepsItsLanes() {
    List<TaskEnvelope> a = sendOrdered("order-1", 3);
    Dispatch x = d.dispatches().get(0);
    d.reopen(new TaskId(0, 0));
    d.advance(1_000);
    assertThat(ids(d.dispatches()))
        .as("after a reopen the lane is still held")
        .doesNotContain(a.get(1).id(), a.get(2).id());
    succeed(x);
    d.advance(100);
    assertThat(ids(d.dispatches())).containsExactly(a.get(1).id());
  }

  @Test
  void aRetryingTaskWhoseHolderPlaceACrashLostStillHoldsItsLaneAfterTheRestart() {
    List<TaskEnvelope> a = sendOrdered("order-1", 2);
    fail(d.dispatches().get(0));
    TaskRecord retrying = d.record(a.get(0).id());
    assertThat(retrying.state()).isEqualTo(TaskState.RETRYING);
    // a kill -9 kept the task record and lost the lanes write that made the task a holder
    LaneStore lanes = new LaneStore(d.driver.getKeyValueStore(Stores.LANES));
    Lane lane = Lane.of(retrying);
    LaneHead head = lanes.head(lane);
    assertThat(head.holders).containsExactly(a.get(0).id());
    head.holders.clear();
    lanes.write(lane, head);

    d.reopen(new TaskId(0, 0));
    d.advance(1_000);
    assertThat(d.dispatches()).as("the next task waits for the retrying one").isEmpty();
    assertThat(lanes.head(lane).holders).containsExactly(a.get(0).id());
    d.advance(10_000);
    Dispatch retry = d.dispatches().get(0);
    assertThat(retry.id()).isEqualTo(a.get(0).id());
    succeed(retry);
    assertThat(ids(d.dispatches())).containsExactly(a.get(1).id());
  }

  @Test
  void aRetryTakesBackItsLaneWhenACrashLostItsPlaceAndGoesBeforeTheTasksWaitingInIt() {
    TaskEnvelope first = sendOrdered("order-1", 1).get(0);
    fail(d.dispatches().get(0));
    List<TaskEnvelope> others = new ArrayList<>();
    for (int i = 0; i < MAX; i++) {
      others.add(Driver.task(T0 - 1_000));
      d.send(others.get(i));
    }
    List<Dispatch> busy = d.dispatches();
    assertThat(busy).as("the handler is saturated").hasSize(MAX);
    TaskEnvelope later = sendOrdered("order-1", 1).get(0);
    assertThat(d.record(later.id()).timerKind()).isEqualTo(TimerKind.LANE);
    d.advance(100); // the record pass after the start is done: only the retry can repair now
    // a kill -9 kept the RETRYING record and lost its place as the lane's holder
    LaneStore lanes = new LaneStore(d.driver.getKeyValueStore(Stores.LANES));
    Lane lane = Lane.of(d.record(first.id()));
    LaneHead head = lanes.head(lane);
    head.holders.clear();
    lanes.write(lane, head);

    d.advance(11_000); // the retry falls due while the handler is still saturated
    assertThat(lanes.head(lane).holders).as("the retry took its lane back").contains(first.id());
    busy.forEach(this::succeed);
    d.advance(100);
    assertThat(ids(d.dispatches())).containsExactly(first.id());
  }

  @Test
  void aStaleEntryDroppedFromAnEmptiedLaneDoesNotLetItsNextTasksRunOutOfOrder() {
    // a kill -9 kept a task record that left its lane at place 1 and lost the deletion of its
    // waiting entry: the lane counts one task waiting that no record backs
    LaneStore lanes = new LaneStore(d.driver.getKeyValueStore(Stores.LANES));
    Lane lane = new Lane(Driver.HANDLER, "order-1", true);
    LaneHead head = new LaneHead();
    head.nextSeq = 2;
    head.waiting = 1;
    lanes.write(lane, head);
    lanes.putWaiting(lane.waitKey(1, "gone"));
    d.advance(100); // the lane's turn drops the stale entry and empties the lane
    assertThat(lanes.head(lane)).isNull();

    List<TaskEnvelope> others = new ArrayList<>();
    for (int i = 0; i < MAX; i++) {
      others.add(Driver.task(T0 - 1_000));
      d.send(others.get(i));
    }
    List<Dispatch> busy = d.dispatches();
    assertThat(busy).as("the handler is saturated").hasSize(MAX);
    List<TaskEnvelope> a = sendOrdered("order-1", 2);
    assertThat(d.record(a.get(0).id()).timerKind()).isEqualTo(TimerKind.LANE);

    busy.forEach(this::succeed);
    d.advance(100);
    List<Dispatch> first = d.dispatches();
    assertThat(ids(first)).as("the lane's first task goes first").containsExactly(a.get(0).id());
    succeed(first.get(0));
    d.advance(100);
    assertThat(ids(d.dispatches())).as("then its second").containsExactly(a.get(1).id());
  }

  @Test
  void tasksWaitingInALaneWhoseHeadACrashLostAreCountedAgainAfterTheRestart() {
    List<TaskEnvelope> others = new ArrayList<>();
    for (int i = 0; i < MAX; i++) {
      others.add(Driver.task(T0 - 1_000));
      d.send(others.get(i));
    }
    List<Dispatch> busy = d.dispatches();
    List<TaskEnvelope> a = sendOrdered("order-1", 2);
    // a kill -9 kept the waiting entries and lost the lane's head
    LaneStore lanes = new LaneStore(d.driver.getKeyValueStore(Stores.LANES));
    Lane lane = Lane.of(d.record(a.get(0).id()));
    LaneHead head = lanes.head(lane);
    head.waiting = 0;
    lanes.write(lane, head);
    assertThat(lanes.head(lane)).isNull();

    d.reopen(new TaskId(0, 0));
    d.advance(1_000); // the record pass after the start counts the waiting tasks again
    assertThat(lanes.head(lane).waiting).isEqualTo(2);
    assertThat(lanes.head(lane).nextSeq).isEqualTo(2);
    assertThat(d.dispatches()).as("the attempts out, sent again after the restart").hasSize(MAX);
    busy.forEach(this::succeed);
    d.advance(100);
    List<Dispatch> first = d.dispatches();
    assertThat(ids(first)).containsExactly(a.get(0).id());
    succeed(first.get(0));
    d.advance(100);
    assertThat(ids(d.dispatches())).containsExactly(a.get(1).id());
  }
}
