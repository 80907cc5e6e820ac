package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskResult;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code adaptive-window}: while tasks with a key wait for their turns, a handler with a backlog
 * keeps about twice what keeps its workers busy out, not {@code max-dispatched}, so a task released
 * in its turn waits behind few attempts already sent; the workers stay as busy as before. A single
 * queue of tasks without a key keeps {@code max-dispatched} out: there is nobody to let ahead.
 */
class AdaptiveWindowTest {
  static final int MAX = 200;
  static final int PER_STEP = 2; // the workers finish 0.2 attempts a millisecond
  static final long STEP_MS = 10;
  static final long WAY_MS = 40; // dispatch → result at the least, no run time

  @TempDir Path dir;
  Driver d;
  final ArrayDeque<Dispatch> out = new ArrayDeque<>();
  final Map<String, Long> sentAt = new HashMap<>();
  final List<String> order = new ArrayList<>(); // ids in the order they were dispatched
  long finished;
  long steps;
  java.util.function.Supplier<TaskEnvelope> trickleTask = () -> keyed("quiet-" + steps);

  @BeforeEach
  void start() {
    d = Driver.withAdaptiveWindow(dir, MAX);
  }

  @AfterEach
  void stop() {
    d.close();
  }

  /**
   * One step of simulated workers: what was sent at least WAY_MS ago finishes, in order; with
   * {@code trickle}, every 100 ms a task of another key, as quiet tenants beside a busy one send.
   */
  private void step(boolean trickle) {
    if (trickle && steps++ % 10 == 0) {
      d.send(trickleTask.get());
    }
    for (Dispatch x : d.dispatches()) {
      out.add(x);
      sentAt.put(x.id(), d.now);
      order.add(x.id());
    }
    for (int i = 0; i < PER_STEP && !out.isEmpty(); i++) {
      Dispatch x = out.peek();
      if (sentAt.get(x.id()) + WAY_MS > d.now) {
        break;
      }
      out.poll();
      d.sendResult(x, TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1"));
      finished++;
    }
    d.advance(STEP_MS);
  }

  private TaskEnvelope keyed(String key) {
    return Driver.task(T0 - 1_000).toBuilder()
        .options(TaskOptions.builder().concurrencyKey(key).build())
        .build();
  }

  /** Runs 3 s, then returns the most attempts out in the next 2 s and the results in them. */
  private long[] mostOutAndResults(boolean trickle) {
    for (int i = 0; i < 300; i++) { // 3 s: the first 200 sent at once are done after 1 s
      step(trickle);
    }
    long before = finished;
    int most = 0;
    for (int i = 0; i < 200; i++) { // 2 s
      step(trickle);
      most = Math.max(most, out.size());
    }
    return new long[] {most, finished - before};
  }

  @Test
  void aBacklogBesideOtherKeysKeepsAboutTwiceThePipeOutAndTheWorkersBusy() {
    for (int i = 0; i < 1_300; i++) {
      d.send(keyed("busy"));
    }
    long[] r = mostOutAndResults(true);
    // the pipe: 0.2 a millisecond × 40 ms on the way = 8; the window 2 × 8 + 8 = 24, not
    // max-dispatched (200); each result refills its slot at once
    assertThat(r[0]).as("attempts out").isBetween(8L, 2 * 8L + DispatchWindow.HEADROOM);
    assertThat(r[1]).as("results in 2 s: the workers stay busy").isEqualTo(400);
  }

  @Test
  void aBacklogOfLowPriorityWithUrgentTasksComingKeepsAboutTwiceThePipeOut() {
    for (int i = 0; i < 1_300; i++) {
      d.send(prioritised(0));
    }
    trickleTask = () -> prioritised(9);
    long[] r = mostOutAndResults(true);
    assertThat(r[0]).as("attempts out").isBetween(8L, 2 * 8L + DispatchWindow.HEADROOM);
    assertThat(r[1]).as("results in 2 s: the workers stay busy").isEqualTo(400);
  }

  @Test
  void urgentTasksPassABacklogsQueueWithinTheReserveAndGoOutFirstAfterIt() {
    for (int i = 0; i < 1_300; i++) {
      d.send(prioritised(0));
    }
    trickleTask = () -> prioritised(9);
    mostOutAndResults(true);
    long passedBefore = d.metrics.get("priority.passed");
    assertThat(passedBefore).as("the trickle's urgent tasks passed the queue").isPositive();
    int window = 2 * 8 + DispatchWindow.HEADROOM;
    for (Dispatch x : d.dispatches()) { // released by the last tick
      out.add(x);
      sentAt.put(x.id(), d.now);
    }
    // ten urgent tasks at once: each goes out at its commit while the reserve lasts
    List<String> urgent = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      TaskEnvelope t = prioritised(9);
      urgent.add(t.id());
      d.send(t);
    }
    List<Dispatch> sent = d.dispatches();
    for (Dispatch x : sent) {
      out.add(x);
      sentAt.put(x.id(), d.now);
    }
    List<String> sentIds = sent.stream().map(Dispatch::id).toList();
    long passed = d.metrics.get("priority.passed") - passedBefore;
    assertThat(urgent).as("only urgent tasks go out at their commits").containsAll(sentIds);
    assertThat(passed)
        .as("passed the queue")
        .isEqualTo(sentIds.size())
        .isBetween((long) FlowControlQueues.RESERVE_MIN, (long) FlowControlQueues.reserve(window));
    assertThat(out)
        .as("attempts out: the window and its reserve at most")
        .hasSizeLessThanOrEqualTo(window + FlowControlQueues.reserve(window));
    // the rest waits at the head of the queue: the next free slots are theirs, before any backlog
    order.clear();
    for (int i = 0; i < 100 && !sentAt.keySet().containsAll(urgent); i++) {
      step(false);
    }
    List<String> rest = urgent.stream().filter(id -> !sentIds.contains(id)).toList();
    assertThat(order.subList(0, rest.size()))
        .as("the next dispatches (queued in one instant: in the order of their ids)")
        .containsExactlyInAnyOrderElementsOf(rest);
  }

  @Test
  void urgentTasksDoNotPassWhileLanesWaitForTheirTurns() {
    for (int i = 0; i < 1_300; i++) {
      d.send(keyed("busy"));
    }
    trickleTask = () -> prioritised(9); // without a key: they take one turn among the lanes
    mostOutAndResults(true);
    assertThat(d.metrics.get("priority.passed")).isZero();
  }

  @Test
  void urgentTasksOfARateLimitDoNotPass() {
    for (int i = 0; i < 1_300; i++) {
      d.send(prioritised(0));
    }
    // they would wait for their slots uncounted by the window: they queue instead
    trickleTask =
        () ->
            Driver.task(T0 - 1_000).toBuilder()
                .options(TaskOptions.builder().priority(9).rateLimit("partner").build())
                .build();
    mostOutAndResults(true);
    assertThat(d.metrics.get("priority.passed")).isZero();
  }

  private TaskEnvelope prioritised(int priority) {
    return Driver.task(T0 - 1_000).toBuilder()
        .options(TaskOptions.builder().priority(priority).build())
        .build();
  }

  @Test
  void aSingleQueueKeepsMaxDispatchedOut() {
    for (int i = 0; i < 1_300; i++) {
      d.send(Driver.task(T0 - 1_000));
    }
    long[] r = mostOutAndResults(false);
    assertThat(r[0]).as("attempts out").isGreaterThan(MAX - 2L * PER_STEP);
    assertThat(r[1]).as("results in 2 s").isEqualTo(400);
  }

  @Test
  void aQuietKeyStartsAboutOnePipeAfterItsTurnBesideABacklog() {
    for (int i = 0; i < 1_300; i++) {
      d.send(keyed("busy"));
    }
    for (int i = 0; i < 300; i++) {
      step(false); // one busy key alone: a key that comes next finds a short pipe
    }
    TaskEnvelope quiet = keyed("quiet");
    d.send(quiet);
    long sent = d.now;
    for (int i = 0;
        i < 200
            && (!sentAt.containsKey(quiet.id())
                || out.stream().anyMatch(x -> x.id().equals(quiet.id())));
        i++) {
      step(false);
    }
    // it waits behind the attempts out when its turn comes: 24 at most, 120 ms at 0.2 a ms, plus
    // its way and its turn (behind max-dispatched, 200, it would wait a second)
    assertThat(sentAt).containsKey(quiet.id());
    assertThat(d.now - sent).as("commit → result of the quiet task, ms").isLessThan(250);
  }
}
