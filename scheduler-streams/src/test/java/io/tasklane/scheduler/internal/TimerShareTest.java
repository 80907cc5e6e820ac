package io.tasklane.scheduler.internal;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
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
 * interval (of half of it while input records wait), and carries the rest to the next ticks: none
 * is lost, none fires twice, they fire oldest first, and a carried entry that input moved meanwhile
 * is stale. The engine's nano clock moves on by {@link Driver#nanoStep} at each reading: a whole
 * interval, so that a tick fires exactly one timer, or nothing, so that a tick fires them all.
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

  /** A task due far ahead, written 5 s before it is processed: the input waits. */
  private void lateInput() {
    TaskEnvelope later = Driver.task(T0 + 3_600_000);
    d.tasks.pipeInput(
        new TestRecord<>(
            later.routingKey(), WireCodec.encode(later), Instant.ofEpochMilli(d.now - 5_000)));
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
  void whileInputWaitsATickHasNoLongerThanTheInputHadSinceTheLastTick() {
    dueAtOneSecond();
    d.nanoStep = Duration.ofMillis(1).toNanos(); // a late record takes 1 ms, a timer too
    d.advanceTo(T0 + 1_000);
    lateInput();
    d.advanceTo(T0 + 1_100);
    assertThat(d.dispatches()).hasSize(1);
    d.advance(100); // no input since: the whole share, tens of timers
    assertThat(d.dispatches()).hasSize(TIMERS - 1);
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
  void aTickHasTheIntervalAndNoMoreThanTheInputHadWhileItWaits() {
    TaskMemory.ThreadInput in = new TaskMemory.ThreadInput();
    TimerShare share = new TimerShare(Duration.ofMillis(20), () -> in, System::nanoTime);
    long interval = Duration.ofMillis(20).toNanos();
    long ms = Duration.ofMillis(1).toNanos();
    long t = T0;

    assertThat(share.budget()).as("no input").isEqualTo(interval);
    in.processed(t - TimerShare.WAITING_LAG_MS - 1, t, 2 * ms);
    assertThat(share.budget()).as("late input took 2 ms").isEqualTo(2 * ms);
    assertThat(share.budget()).as("none since").isEqualTo(interval);
    in.processed(t - TimerShare.WAITING_LAG_MS, t, 2 * ms);
    assertThat(share.budget()).as("input keeping up").isEqualTo(interval);
    in.processed(t - 60_000, t, 12 * ms);
    in.processed(t - 60_000, t, 12 * ms);
    assertThat(share.budget()).as("late input took longer than the interval").isEqualTo(interval);
  }
}
