package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A punctuator tick fires its timers only for its {@link TimerShare}, a part of the punctuation
 * interval (no more than the input had while input records wait), and carries the rest to the next
 * ticks: none is lost, none fires twice, they fire oldest first, and a carried entry that input
 * moved meanwhile is stale. The engine's nano clock moves on by {@link Driver#nanoStep} at each
 * reading: a whole interval, so that a tick fires exactly one timer, or nothing, so that a tick
 * fires them all.
 */
class TimerShareTest {
  private static final int TIMERS = 12;
  private static final long INTERVAL_NANOS = Duration.ofMillis(100).toNanos(); // Driver's

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

  /** A task due far ahead, written 10 s before it is processed: late input. */
  private void lateInput() {
    TaskEnvelope later = Driver.task(T0 + 3_600_000);
    d.tasks.pipeInput(
        new TestRecord<>(
            later.routingKey(), WireCodec.encode(later), Instant.ofEpochMilli(d.now - 10_000)));
  }

  /** {@link #TIMERS} tasks due from T0 + 1,050 ms on, a millisecond apart. */
  private List<TaskEnvelope> dueAtOneSecond() {
    List<TaskEnvelope> due = new ArrayList<>();
    for (int i = 0; i < TIMERS; i++) {
      TaskEnvelope t = Driver.task(T0 + 1_050 + i);
      due.add(t);
      d.send(t);
    }
    return due;
  }

  private static List<String> ids(List<TaskEnvelope> tasks) {
    return tasks.stream().map(TaskEnvelope::id).toList();
  }

  @Test
  void aTickEndsWhenItsShareIsSpentAndTheRestFollowInDueOrder() {
    List<TaskEnvelope> due = dueAtOneSecond();
    d.nanoStep = INTERVAL_NANOS;
    List<String> fired = new ArrayList<>();
    for (long t = T0 + 1_100; t <= T0 + 1_500; t += 100) {
      d.advanceTo(t);
      List<Dispatch> tick = d.dispatches();
      assertThat(tick).hasSize(1);
      fired.add(tick.get(0).id());
    }
    assertThat(d.metrics.get(SchedulerEvent.TIMERS_YIELDED)).isEqualTo(5);

    d.nanoStep = 0;
    d.advance(100);
    d.dispatches().forEach(x -> fired.add(x.id()));

    assertThat(fired).containsExactlyElementsOf(ids(due));
    d.advanceTo(T0 + 10_000);
    assertThat(d.dispatches()).isEmpty();
  }

  @Test
  void lateInputOnABusyThreadLeavesTheTicksNoLongerThanTheInputHad() {
    dueAtOneSecond();
    d.nanoStep = Duration.ofMillis(1).toNanos(); // a late record takes 1 ms, a timer too
    d.advanceTo(T0 + 1_000);
    // the thread was busy for its whole last window (how that is judged: the test below)
    d.engine.memory().input().contended = true;
    lateInput();
    d.advanceTo(T0 + 1_100);
    assertThat(d.dispatches()).as("the input's 1 ms").hasSize(1);
    d.advance(100);
    assertThat(d.dispatches()).as("no input since: the first timer only").hasSize(1);
    d.nanos += Duration.ofSeconds(1).toNanos(); // no record for ten intervals: input is done
    d.advance(100);
    assertThat(d.dispatches()).as("the whole interval").hasSize(TIMERS - 2);
  }

  @Test
  void lateInputOnAnIdleThreadLeavesTheTicksTheirInterval() {
    dueAtOneSecond();
    d.nanoStep = Duration.ofMillis(1).toNanos();
    d.advanceTo(T0 + 1_000);
    lateInput(); // stamped 10 s before it was read, but nothing kept it waiting for the thread
    d.advanceTo(T0 + 1_100);
    assertThat(d.dispatches()).hasSize(TIMERS);
  }

  @Test
  void aCarriedTimerThatInputRemovedMeanwhileIsStaleNotFired() {
    List<TaskEnvelope> due = dueAtOneSecond();
    d.nanoStep = INTERVAL_NANOS;
    d.advanceTo(T0 + 1_100);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(due.get(0).id());
    TaskEnvelope cancelled = due.get(1); // carried: its DUE entry is still in the index
    d.sendControl(cancelled.id(), CancelCommand.of(cancelled.id(), "order paid", d.now));
    long stale = d.metrics.get(SchedulerEvent.TIMER_STALE);

    d.nanoStep = 0;
    d.advanceTo(T0 + 1_200);

    assertThat(d.record(cancelled.id()).state()).isEqualTo(TaskState.CANCELLED);
    assertThat(d.dispatches())
        .extracting(Dispatch::id)
        .hasSize(TIMERS - 2)
        .doesNotContain(cancelled.id());
    assertThat(d.metrics.get(SchedulerEvent.TIMER_STALE)).isEqualTo(stale + 1);
  }

  @Test
  void theTicksOfABusyThreadShareTheTimeItsInputHad() {
    TaskMemory.ThreadInput in = new TaskMemory.ThreadInput();
    long[] clock = {0};
    TimerShare share = new TimerShare(Duration.ofMillis(20), () -> in, () -> clock[0]);
    long interval = Duration.ofMillis(20).toNanos();
    long window = TimerShare.WINDOW_INTERVALS * interval;
    long ms = Duration.ofMillis(1).toNanos();
    long late = T0 - TimerShare.WAITING_LAG_MS - 1;

    assertThat(share.budget()).as("no input").isEqualTo(interval);
    clock[0] += window;
    in.processed(late, T0, window, clock[0], interval); // late input took the whole window
    assertThat(share.budget())
        .as("busy, and the credit is one interval at most")
        .isEqualTo(interval);
    share.spent(interval);
    assertThat(share.budget()).as("the next task of the thread: credit used up").isZero();

    in.processed(late, T0, 3 * ms, clock[0], interval);
    share.spent(ms);
    assertThat(share.budget()).as("a tick leaves what it did not use").isEqualTo(2 * ms);

    in.processed(T0 - TimerShare.WAITING_LAG_MS, T0, 2 * ms, clock[0], interval);
    assertThat(share.budget()).as("input keeping up").isEqualTo(interval);
    in.processed(late, T0, ms, clock[0], interval);
    assertThat(share.budget()).as("the credit was dropped meanwhile").isEqualTo(ms);

    clock[0] += window; // a window in which the thread worked 28 ms of 100
    in.processed(late, T0, ms, clock[0], interval);
    assertThat(share.budget()).as("late input on a thread that idled").isEqualTo(interval);

    clock[0] += window;
    share.spent(window); // timers alone kept the thread busy for a window
    clock[0] += 1;
    assertThat(share.budget())
        .as("busy, but no record for a window: input is done")
        .isEqualTo(interval);
  }
}
