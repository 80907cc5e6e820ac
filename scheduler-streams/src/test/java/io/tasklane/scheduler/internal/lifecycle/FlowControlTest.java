package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.api.LocalTaskSearch;
import io.tasklane.scheduler.internal.api.Redactor;
import io.tasklane.scheduler.internal.api.TaskQuery;
import io.tasklane.scheduler.internal.api.TaskRow;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code max-dispatched}: due tasks beyond a handler's window wait in the scheduler, in order. */
class FlowControlTest {
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

  private List<TaskEnvelope> sendDue(int n) {
    List<TaskEnvelope> sent = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      TaskEnvelope t = Driver.task(T0 - 1_000 + i);
      d.send(t);
      sent.add(t);
      d.advance(1); // queued one after the other: a queue is in the order its tasks were queued
    }
    return sent;
  }

  /**
   * The dispatches sent since the last read, less the copies of {@code out} the write-back pass
   * sends again after a restart ({@link TimerRepair}).
   */
  private List<Dispatch> newDispatches(List<Dispatch> out) {
    return d.dispatches().stream().filter(x -> !out.contains(x)).toList();
  }

  private void succeed(Dispatch dispatch) {
    d.sendResult(TaskResult.succeeded(dispatch.id(), dispatch.attempt(), d.now, d.now, "w1"));
  }

  @Test
  void queuesBeyondTheWindowAndReleasesInQueueOrderAsResultsArrive() {
    List<TaskEnvelope> sent = sendDue(10);

    List<Dispatch> first = d.dispatches();
    assertThat(first).extracting(Dispatch::id).containsExactly(ids(sent, 0, 3));
    assertThat(d.count("DISPATCHED")).isEqualTo(MAX);
    TaskRecord queued = d.record(sent.get(3).id());
    assertThat(queued.state()).isEqualTo(TaskState.PENDING);
    assertThat(queued.timerKind()).isEqualTo(TimerKind.QUEUED);
    assertThat(d.metrics.get("queued")).isEqualTo(7);

    d.advance(1_000);
    assertThat(d.dispatches()).as("no free slot, nothing released").isEmpty();

    succeed(first.get(0));
    succeed(first.get(1));
    d.advance(100);

    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(ids(sent, 3, 5));
    assertThat(d.count("DISPATCHED")).isEqualTo(MAX);
    assertThat(d.count("SUCCEEDED")).isEqualTo(2);
  }

  @Test
  void aNewDueTaskQueuesBehindTheWaitingOnesEvenWhenASlotIsFree() {
    List<TaskEnvelope> sent = sendDue(4);
    succeed(d.dispatches().get(0));

    TaskEnvelope late = Driver.task(T0);
    d.send(late);
    assertThat(d.dispatches()).as("the free slot belongs to the queue's head").isEmpty();
    assertThat(d.record(late.id()).timerKind()).isEqualTo(TimerKind.QUEUED);

    d.advance(100);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(sent.get(3).id());
  }

  @Test
  void aTimedOutAttemptFreesItsSlot() {
    List<TaskEnvelope> sent = sendDue(4);
    assertThat(d.dispatches()).hasSize(MAX);

    // timeoutMs 5 s + grace 10 s: every attempt out times out and goes RETRYING.
    d.advance(15_000);

    assertThat(d.record(sent.get(0).id()).state()).isEqualTo(TaskState.RETRYING);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(sent.get(3).id());
  }

  @Test
  void aCancelledQueuedTaskLeavesTheQueue() {
    List<TaskEnvelope> sent = sendDue(5);
    List<Dispatch> out = d.dispatches();
    String cancelled = sent.get(3).id();
    d.sendControl(cancelled, CancelCommand.of(cancelled, "order paid", d.now));
    assertThat(d.record(cancelled).state()).isEqualTo(TaskState.CANCELLED);

    succeed(out.get(0));
    d.advance(100);

    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(sent.get(4).id());
    assertThat(d.metrics.get("timer.stale")).isZero();
  }

  @Test
  void aFullHandlerDoesNotHoldUpAnother() {
    sendDue(5);
    TaskEnvelope other =
        Driver.task("sms.send", T0, 3, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of());
    d.known.topics.add(d.topics.handler("sms.send"));
    d.send(other);
    assertThat(d.dispatches("sms.send")).extracting(Dispatch::id).containsExactly(other.id());
  }

  @Test
  void theLoadIsCountedAgainFromTheStoresAfterTheProcessorsRestart() {
    List<TaskEnvelope> sent = sendDue(6);
    List<Dispatch> out = d.dispatches();

    d.reopen(new TaskId(0, 0)); // what a crash, move or restart does
    succeed(out.get(0));
    d.advance(100);

    // Counted from the index: 2 attempts out and 3 queued, so exactly one is released.
    assertThat(newDispatches(out)).extracting(Dispatch::id).containsExactly(sent.get(3).id());
    succeed(out.get(1));
    succeed(out.get(2));
    d.advance(100);
    assertThat(newDispatches(out)).extracting(Dispatch::id).containsExactly(ids(sent, 4, 6));
  }

  @Test
  void aTriggeredQueuedTaskKeepsItsPlace() {
    List<TaskEnvelope> sent = sendDue(5);
    List<Dispatch> out = d.dispatches();
    String head = sent.get(3).id();
    d.advance(1_000);
    d.sendControl(head, ControlCommand.Trigger.of(head, d.now));
    assertThat(d.dispatches()).isEmpty();
    assertThat(d.metrics.get("trigger.queued")).isEqualTo(1);

    succeed(out.get(0));
    d.advance(100);

    // Moved to "now" it would sort behind sent[4]; it stays the head.
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(head);
  }

  @Test
  void aStaleDeadlineEntryIsNotCountedAsAnAttemptOut() {
    List<TaskEnvelope> sent = sendDue(5);
    List<Dispatch> out = d.dispatches();
    // What a crash between the stores' flushes can leave: a second, older deadline entry.
    KeyValueStore<Bytes, byte[]> index = d.driver.getKeyValueStore(Stores.DUE_INDEX);
    index.put(DueIndexKey.of(T0 + 999_999, out.get(0).id()), new byte[] {TimerKind.DEADLINE.code});
    d.reopen(new TaskId(0, 0));
    d.advance(100); // counted again while that task is still out

    succeed(out.get(1));
    d.advance(100);

    assertThat(newDispatches(out)).extracting(Dispatch::id).containsExactly(sent.get(3).id());
  }

  @Test
  void aStaleSearchEntryIsNotCountedAsAnAttemptOut() {
    List<TaskEnvelope> sent = sendDue(5);
    List<Dispatch> out = d.dispatches();
    // What a crash between the stores' flushes can leave: a second, older DISPATCHED entry.
    KeyValueStore<Bytes, byte[]> search = d.driver.getKeyValueStore(Stores.TASK_INDEX);
    Dispatch first = out.get(0);
    search.put(
        TaskIndexKey.of(TaskState.DISPATCHED, first.task().handler(), T0 - 5_000, first.id()),
        new byte[8]);
    d.reopen(new TaskId(0, 0));
    d.advance(100); // counted again from the search index while that task is still out

    succeed(out.get(1));
    d.advance(100);

    // 3 out before, 2 now: one slot, one release; counting the stale entry would leave none.
    assertThat(newDispatches(out)).extracting(Dispatch::id).containsExactly(sent.get(3).id());
  }

  @Test
  void onlyTheDispatchedTasksAreReadToCountTheLoad() {
    sendDue(5);
    List<Dispatch> out = d.dispatches();
    for (int i = 0; i < 50; i++) {
      d.send(Driver.task(T0 + 86_400_000L + i)); // far-future tasks: PENDING, not counted
    }
    List<String> counted = new ArrayList<>();
    new TaskIndex(d.driver.getKeyValueStore(Stores.TASK_INDEX), null)
        .forEachIn(TaskState.DISPATCHED, (id, key) -> counted.add(id));
    assertThat(counted)
        .containsExactlyInAnyOrderElementsOf(out.stream().map(Dispatch::id).toList());
  }

  /**
   * Sends a task due at {@code dueAt}, then does what a kill -9 in the middle of a flush can do:
   * the index loses its entry, the record keeps its timer, and the stream task restarts.
   */
  private TaskEnvelope sendAndLoseItsTimer(long dueAt) {
    TaskEnvelope task = Driver.task(dueAt);
    d.send(task);
    KeyValueStore<Bytes, byte[]> index = d.driver.getKeyValueStore(Stores.DUE_INDEX);
    index.delete(DueIndexKey.of(dueAt, task.id()));
    d.reopen(new TaskId(0, 0));
    return task;
  }

  @Test
  void aTimerEntryLostByAKillIsWrittenBackAfterTheRestart() {
    TaskEnvelope later = sendAndLoseItsTimer(T0 + 5_000);

    d.advanceTo(T0 + 5_000);

    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(later.id());
    assertThat(d.metrics.get("timer.healed")).isEqualTo(1);
  }

  @Test
  void aStoreLargerThanOneRepairSliceIsRepairedOverSeveralTicksToTheLastTimer() {
    d.close();
    d = new Driver(dir.resolve("big"), 5_000, 5_000);
    java.util.List<TaskEnvelope> tasks = new java.util.ArrayList<>();
    for (int i = 0; i < 2_500; i++) {
      TaskEnvelope t = Driver.task(T0 + 30_000);
      d.send(t);
      tasks.add(t);
    }
    KeyValueStore<Bytes, byte[]> index = d.driver.getKeyValueStore(Stores.DUE_INDEX);
    java.util.List<String> byKey = tasks.stream().map(TaskEnvelope::id).sorted().toList();
    for (String lost : java.util.List.of(byKey.get(0), byKey.get(1_999), byKey.get(2_499))) {
      index.delete(DueIndexKey.of(T0 + 30_000, lost));
    }
    d.reopen(new TaskId(0, 0));

    for (int i = 0; i < 310; i++) {
      d.advance(100);
    }

    assertThat(d.dispatches()).hasSize(2_500);
    assertThat(d.metrics.get("timer.healed")).isEqualTo(3);
  }

  @Test
  void underExactlyOnceNoTimerIsWrittenBack() {
    d.close();
    d = new Driver(dir.resolve("eos"), 1_000, 1_000, false);
    // Cannot happen under exactly_once_v2 (the stores commit atomically), so no pass looks for it.
    sendAndLoseItsTimer(T0 + 5_000);

    d.advanceTo(T0 + 5_000);

    assertThat(d.dispatches()).isEmpty();
    assertThat(d.metrics.get("timer.healed")).isZero();
  }

  @Test
  void handlersShareASmallReleaseBudgetInTurn() {
    d.close();
    d = new Driver(dir.resolve("small"), 1, 2);
    d.known.topics.add(d.topics.handler("sms.send"));
    RetryPolicy backoff = RetryPolicy.fixed(Duration.ofSeconds(1));
    List<TaskEnvelope> mail = new ArrayList<>();
    List<TaskEnvelope> sms = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      mail.add(Driver.task(Driver.HANDLER, T0 - 100 + i, 3, backoff, List.of()));
      sms.add(Driver.task("sms.send", T0 - 100 + i, 3, backoff, List.of()));
      d.send(mail.get(i));
      d.send(sms.get(i));
      d.advance(1);
    }
    d.dispatches().forEach(this::succeed);
    d.dispatches("sms.send").forEach(this::succeed);

    // Both handlers have two free slots, the budget is one release per tick (scan-bound 1):
    // two ticks release one task of each, not two of the handler that sorts first.
    d.advance(100);
    d.advance(100);

    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(mail.get(2).id());
    assertThat(d.dispatches("sms.send")).extracting(Dispatch::id).containsExactly(sms.get(2).id());
  }

  @Test
  void aNoHandlerTaskWhoseTopicAppearsJoinsTheQueueWhenTheWindowIsFull() {
    sendDue(3);
    d.known.topics.remove(d.topics.handler(Driver.HANDLER));
    TaskEnvelope parked = Driver.task(T0);
    d.send(parked);
    assertThat(d.record(parked.id()).state()).isEqualTo(TaskState.NO_HANDLER);

    d.known.topics.add(d.topics.handler(Driver.HANDLER));
    d.advance(1_000);

    TaskRecord r = d.record(parked.id());
    assertThat(r.state()).isEqualTo(TaskState.PENDING);
    assertThat(r.timerKind()).isEqualTo(TimerKind.QUEUED);
  }

  @Test
  void queueKeysAnEarlierVersionKeptInTheDueIndexMoveToTheSearchIndex() {
    List<TaskEnvelope> sent = sendDue(5); // 3 out, 2 queued
    List<Dispatch> out = d.dispatches();
    KeyValueStore<Bytes, byte[]> due = d.driver.getKeyValueStore(Stores.DUE_INDEX);
    KeyValueStore<Bytes, byte[]> search = d.driver.getKeyValueStore(Stores.TASK_INDEX);
    for (TaskEnvelope t : sent.subList(3, 5)) { // as an earlier version stored them
      TaskRecord r = d.record(t.id());
      search.delete(TaskIndexKey.of(t.id(), r));
      search.put(
          TaskIndexKey.of(r.state(), Driver.HANDLER, false, r.updatedAt(), t.id()),
          TaskIndexKey.value(r));
      due.put(
          DueIndexKey.queued(Driver.HANDLER, r.timerAt(), t.id()),
          new byte[] {TimerKind.QUEUED.code});
    }
    d.reopen(new TaskId(0, 0)); // the new version opens the stream task

    succeed(out.get(0));
    d.advance(100);

    assertThat(newDispatches(out)).extracting(Dispatch::id).containsExactly(sent.get(3).id());
    assertThat(d.indexSize()).as("no queue key left in the due index").isZero();
    String waiting = sent.get(4).id();
    TaskRecord r = d.record(waiting);
    assertThat(r.timerKind()).isEqualTo(TimerKind.QUEUED);
    assertThat(search.get(TaskIndexKey.of(waiting, r))).as("its queued entry").isNotNull();
    assertThat(
            search.get(
                TaskIndexKey.of(TaskState.PENDING, Driver.HANDLER, false, r.updatedAt(), waiting)))
        .as("its earlier PENDING entry")
        .isNull();
    succeed(out.get(1));
    d.advance(100);
    assertThat(newDispatches(out)).extracting(Dispatch::id).containsExactly(waiting);
  }

  @Test
  void aSearchByStateListsTheQueuedTasksWithTheOtherPendingOnes() {
    List<TaskEnvelope> sent = sendDue(5); // 3 out, 2 queued
    TaskEnvelope later = Driver.task(T0 + 60_000); // PENDING with a due timer
    d.send(later);
    TaskReads reads = TaskReads.of(name -> d.driver.getKeyValueStore(name));
    List<LocalTaskSearch.Group> groups =
        List.of(
            new LocalTaskSearch.Group(TaskState.PENDING, Driver.HANDLER),
            new LocalTaskSearch.Group(TaskState.PENDING, Driver.HANDLER, true));
    TaskQuery q =
        TaskQuery.parse(
            java.util.Map.of("state", List.of("PENDING"), "limit", List.of("500")),
            d.now,
            new Redactor(io.tasklane.scheduler.ApiSettings.DEFAULT),
            io.tasklane.scheduler.SchedulerConfig.Role.ADMIN);

    LocalTaskSearch.Page page =
        new LocalTaskSearch(10_000)
            .search(List.of(new LocalTaskSearch.Partition(reads, groups)), q);

    assertThat(page.rows())
        .extracting(TaskRow::id)
        .containsExactlyInAnyOrder(sent.get(3).id(), sent.get(4).id(), later.id());
    assertThat(page.rows()).extracting(TaskRow::state).containsOnly(TaskState.PENDING);
  }

  private static String[] ids(List<TaskEnvelope> sent, int from, int to) {
    return sent.subList(from, to).stream().map(TaskEnvelope::id).toArray(String[]::new);
  }
}
