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
import java.util.concurrent.atomic.AtomicLong;
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
  void whileInputWaitsATickHasHalfTheShareUntilNoLateInputCameForASecond() {
    dueAtOneSecond();
    // half the interval: a timer costs a third of it, so a tick fires two (the check after the
    // second reads 2/3 > 1/2), and three without waiting input (3/3)
    d.nanoStep = INTERVAL_NANOS / 3 + 1;
    d.advanceTo(T0 + 1_000);
    lateInput(); // processed at T0 + 1,000
    d.advanceTo(T0 + 1_100);
    assertThat(d.dispatches()).hasSize(2);
    d.advanceTo(T0 + 1_000 + TimerShare.IDLE_AFTER_MS);
    assertThat(d.dispatches()).hasSize(2);
    d.advance(100);
    assertThat(d.dispatches()).hasSize(3);
    d.nanoStep = 0;
    d.advance(100);
    assertThat(d.dispatches()).hasSize(TIMERS - 7);
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
  void theShareIsTheIntervalSplitOverTheOpenTasksAndHalfOfItWhileTheLatestInputIsLate() {
    TaskMemory memory = new TaskMemory(Alerts.OFF);
    AtomicLong tasks = new AtomicLong(4);
    TimerShare share =
        new TimerShare(Duration.ofMillis(20), () -> (int) tasks.get(), System::nanoTime);
    long whole = Duration.ofMillis(20).toNanos() / 4;
    long t = T0;

    assertThat(share.budget(memory, t)).as("no input yet").isEqualTo(whole);
    memory.input(t - TimerShare.WAITING_LAG_MS - 1, t);
    assertThat(share.budget(memory, t + 20)).as("the latest input was late").isEqualTo(whole / 2);
    assertThat(share.budget(memory, t + TimerShare.IDLE_AFTER_MS))
        .as("still, until that long after it")
        .isEqualTo(whole / 2);
    assertThat(share.budget(memory, t + TimerShare.IDLE_AFTER_MS + 1))
        .as("no input since")
        .isEqualTo(whole);
    memory.input(t - TimerShare.WAITING_LAG_MS, t);
    assertThat(share.budget(memory, t + 20)).as("input keeping up").isEqualTo(whole);
    tasks.set(0);
    memory.input(t - 60_000, t);
    assertThat(share.budget(memory, t)).isEqualTo(Duration.ofMillis(10).toNanos());
  }
}
