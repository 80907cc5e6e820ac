package io.tasklane.scheduler.internal.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
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
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Priorities: a saturated handler releases its queued tasks highest priority first, a task of a
 * higher priority queued after a batch of the queue was read still goes out at the next free slot,
 * and aging bounds how long a low-priority task is passed ({@code priority-aging}, 5 min here).
 */
class PriorityTest {
  static final int MAX = 2;
  static final long AGING_MS = Duration.ofMinutes(5).toMillis();

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

  private TaskEnvelope send(int priority) {
    TaskEnvelope t =
        Driver.task(d.now - 1_000).toBuilder()
            .options(TaskOptions.builder().priority(priority).build())
            .build();
    d.send(t);
    d.advance(1);
    return t;
  }

  private List<String> sendAll(int priority, int n) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(send(priority).id());
    }
    return ids;
  }

  private void succeed(Dispatch x) {
    d.sendResult(TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1"));
  }

  @Test
  void aPausedHandlersQueueGoesOutHighestPriorityFirstInArrivalOrderWithinAPriority() {
    d.paused.add(Driver.HANDLER);
    d.advance(200); // the pause is seen
    List<String> low = sendAll(0, 3);
    List<String> normal = sendAll(5, 3);
    List<String> high = sendAll(9, 2);
    List<String> middle = sendAll(7, 2);
    assertThat(d.dispatches()).isEmpty();
    assertThat(d.record(high.get(0)).timerKind()).isEqualTo(TimerKind.QUEUED);

    d.paused.clear();
    List<String> order = new ArrayList<>();
    for (int i = 0; i < 10 && order.size() < 10; i++) {
      d.advance(100);
      for (Dispatch x : d.dispatches()) {
        order.add(x.id());
        succeed(x);
      }
    }
    List<String> expected = new ArrayList<>(high);
    expected.addAll(middle);
    expected.addAll(normal);
    expected.addAll(low);
    assertThat(order).containsExactlyElementsOf(expected);
  }

  @Test
  void aDispatchCarriesItsPriorityAsARecordHeaderOnlyWhenNotTheDefault() {
    java.util.Map<String, String> headers = new java.util.HashMap<>();
    List<String> ids = new ArrayList<>();
    for (int p : new int[] {9, 5, 0}) {
      ids.add(send(p).id());
      d.advance(100);
      for (var r : d.read(d.topics.handler(Driver.HANDLER))) {
        var h = r.headers().lastHeader(io.tasklane.core.ReservedHeaders.DISPATCH_PRIORITY);
        headers.put(r.key(), h == null ? "none" : new String(h.value()));
        succeed(io.tasklane.core.WireCodec.decodeDispatch(r.value())); // frees the slot (MAX 2)
      }
    }
    String urgent = ids.get(0);
    String plain = ids.get(1);
    String low = ids.get(2);
    assertThat(headers)
        .containsEntry(urgent, "9")
        .containsEntry(plain, "none")
        .containsEntry(low, "0");
  }

  @Test
  void aHighPriorityTaskQueuedBehindABatchAtHandGoesOutAtTheNextFreeSlot() {
    List<Dispatch> out = new ArrayList<>();
    sendAll(5, MAX);
    out.addAll(d.dispatches());
    List<String> backlog = sendAll(0, 20);
    succeed(out.remove(0));
    d.advance(100); // releases one: the queue's batch is read with the other 19 in it
    out.addAll(d.dispatches());
    assertThat(out).extracting(Dispatch::id).contains(backlog.get(0));

    String urgent = send(9).id();
    succeed(out.remove(0));
    d.advance(100);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(urgent);
  }

  @Test
  void agingLetsALowPriorityTaskGoBeforeHighPriorityTasksQueuedMoreThanTheBoundAfterIt() {
    d.paused.add(Driver.HANDLER);
    d.advance(200);
    String low = send(0).id();
    d.advance(AGING_MS - 60_000);
    String passes = send(9).id(); // queued within the bound after it: goes first
    d.advance(120_000);
    String waits = send(9).id(); // queued more than the bound after it: goes after it
    String normal = send(5).id(); // queued 6 minutes after it, 2/9 of the bound ahead: after it

    d.paused.clear();
    List<String> order = new ArrayList<>();
    for (int i = 0; i < 10 && order.size() < 4; i++) {
      d.advance(100);
      for (Dispatch x : d.dispatches()) {
        order.add(x.id());
        succeed(x);
      }
    }
    assertThat(order).containsExactly(passes, low, waits, normal);
  }

  @Test
  void aSearchListsQueuedTasksOfEveryPriority() {
    sendAll(5, MAX); // out
    String low = send(0).id();
    String high = send(9).id();
    TaskReads reads = TaskReads.of(name -> d.driver.getKeyValueStore(name));
    List<LocalTaskSearch.Group> groups =
        List.of(
            new LocalTaskSearch.Group(TaskState.PENDING, Driver.HANDLER),
            new LocalTaskSearch.Group(TaskState.PENDING, Driver.HANDLER, true));
    TaskQuery q =
        TaskQuery.parse(
            Map.of("state", List.of("PENDING"), "limit", List.of("500")),
            d.now,
            new Redactor(io.tasklane.scheduler.ApiSettings.DEFAULT),
            io.tasklane.scheduler.SchedulerConfig.Role.ADMIN);

    LocalTaskSearch.Page page =
        new LocalTaskSearch(10_000)
            .search(List.of(new LocalTaskSearch.Partition(reads, groups)), q);

    assertThat(page.rows()).extracting(TaskRow::id).containsExactlyInAnyOrder(low, high);
  }
}
