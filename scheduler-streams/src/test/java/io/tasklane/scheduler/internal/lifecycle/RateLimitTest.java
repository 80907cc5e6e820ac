package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.ControlRecord;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.RateLimit;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rate limits ({@link RateGate}, {@link RateOwner}): a due task of a limited handler or naming a
 * limit asks the limit's owner for a start slot over {@code <ns>.dependencies} and is dispatched
 * with the slot as its {@code notBefore}; the slots of one limit are spaced by its rate, at most
 * {@code rate + burst - 1} in any second; a task of an undefined limit waits for it; a duplicate or
 * late answer changes nothing.
 */
class RateLimitTest {
  @TempDir Path dir;
  Driver d;
  final List<Dispatch> sent = new ArrayList<>();

  @BeforeEach
  void start() {
    d = new Driver(dir);
  }

  @AfterEach
  void stop() {
    d.close();
  }

  private static TaskEnvelope task(String handler, String limit) {
    TaskEnvelope t =
        Driver.task(handler, T0 - 1_000, 3, RetryPolicy.fixed(Duration.ofSeconds(1)), List.of());
    return limit == null
        ? t
        : t.toBuilder().options(TaskOptions.builder().rateLimit(limit).build()).build();
  }

  /**
   * Collects the dispatches. The test driver feeds the protocol's records back in as they are
   * written ({@code <ns>.dependencies} is an input of the topology), so asks and answers have been
   * handled by now; they are read off here only.
   */
  private void pump(String... handlers) {
    d.dependenciesOut.readRecordsToList();
    for (String h : handlers) {
      sent.addAll(d.dispatches(h));
    }
  }

  /** Runs the clock in 50 ms steps for {@code ms}, pumping after each. */
  private void run(long ms, String... handlers) {
    long end = d.now + ms;
    while (d.now < end) {
      d.advance(50);
      pump(handlers);
    }
  }

  private static long start(Dispatch x) {
    return x.notBefore() == null ? x.dispatchedAt() : x.notBefore();
  }

  /** The most starts of {@code xs} in any window of {@code windowMs}. */
  private static int most(List<Dispatch> xs, long windowMs) {
    List<Long> starts = xs.stream().map(RateLimitTest::start).sorted().toList();
    int most = 0;
    for (int i = 0, j = 0; i < starts.size(); i++) {
      while (starts.get(i) - starts.get(j) >= windowMs) {
        j++;
      }
      most = Math.max(most, i - j + 1);
    }
    return most;
  }

  @Test
  void aLimitedHandlersTasksStartOneIntervalApart() {
    d.limits.put("handler/" + Driver.HANDLER, new RateLimit(10, 1, 1));
    for (int i = 0; i < 30; i++) {
      d.send(task(Driver.HANDLER, null));
    }
    pump(Driver.HANDLER);
    assertThat(sent).hasSize(11); // the slots within the owner's 1 s horizon after its lead
    assertThat(d.count("PENDING")).isEqualTo(30 - sent.size()); // the rest wait for theirs
    run(4_000, Driver.HANDLER);
    assertThat(sent).hasSize(30);
    assertThat(sent.stream().map(Dispatch::id).distinct()).hasSize(30);
    List<Long> starts = sent.stream().map(RateLimitTest::start).sorted().toList();
    for (int i = 1; i < starts.size(); i++) {
      assertThat(starts.get(i) - starts.get(i - 1)).as("gap %d", i).isGreaterThanOrEqualTo(100);
    }
    assertThat(most(sent, 1_000)).isEqualTo(10);
    assertThat(starts.get(29) - starts.get(0)).isBetween(2_900L, 3_000L);
    assertThat(d.metrics.get(SchedulerEvent.RATE_GRANTED)).isEqualTo(30);
    assertThat(d.metrics.get(SchedulerEvent.RATE_LATER)).isPositive();
  }

  @Test
  void aBacklogAsksAboutTwiceATask() {
    d.limits.put("partner-api", new RateLimit(100, 1, 10));
    for (int i = 0; i < 1_000; i++) {
      d.send(task(Driver.HANDLER, "partner-api"));
    }
    pump(Driver.HANDLER);
    run(12_000, Driver.HANDLER);
    assertThat(sent).hasSize(1_000);
    assertThat(most(sent, 1_000)).isLessThanOrEqualTo(109);
    System.err.println(
        "asked "
            + d.metrics.get(SchedulerEvent.RATE_ASKED)
            + " later "
            + d.metrics.get(SchedulerEvent.RATE_LATER));
    assertThat(d.metrics.get(SchedulerEvent.RATE_ASKED)).isLessThanOrEqualTo(2_100);
  }

  @Test
  void halfTheBurstGoesAtOnceAndTheRestAtTheRateWithTheOtherHalfAsTheWorkersTolerance() {
    d.limits.put("partner-api", new RateLimit(5, 1, 5));
    for (int i = 0; i < 15; i++) {
      d.send(task(Driver.HANDLER, "partner-api"));
    }
    pump(Driver.HANDLER);
    run(4_000, Driver.HANDLER);
    assertThat(sent).hasSize(15);
    long first = sent.stream().mapToLong(RateLimitTest::start).min().orElseThrow();
    assertThat(sent.stream().filter(x -> start(x) == first)).hasSize(3);
    assertThat(most(sent, 1_000)).isLessThanOrEqualTo(5 + 3 - 1);
    // two slots kept back: a start up to 3 intervals late (599 ms) keeps any second within 5 + 5
    assertThat(sent).allMatch(x -> x.slotTolerance() == 599L);
    List<Dispatch> worst = new ArrayList<>();
    for (Dispatch x : sent) {
      worst.add(
          new Dispatch(
              x.v(),
              x.task(),
              x.attempt(),
              x.deadline(),
              x.routingKey(),
              x.dispatchedAt(),
              // the last slot of each second starts as late as it may: bunched with the next ones
              start(x) + (start(x) % 1_000 >= 600 ? x.slotTolerance() : 0),
              x.nonce(),
              x.slotTolerance()));
    }
    assertThat(most(worst, 1_000)).isLessThanOrEqualTo(5 + 5);
  }

  @Test
  void aNamedLimitHoldsAcrossHandlers() {
    String other = "sms.send";
    d.known.topics.add(d.topics.handler(other));
    d.limits.put("partner-api", new RateLimit(4, 1, 1));
    for (int i = 0; i < 6; i++) {
      d.send(task(Driver.HANDLER, "partner-api"));
      d.send(task(other, "partner-api"));
    }
    pump(Driver.HANDLER, other);
    run(3_500, Driver.HANDLER, other);
    assertThat(sent).hasSize(12);
    assertThat(most(sent, 1_000)).isEqualTo(4);
    // every ask of the limit went to one owner: keyed by the limit, not by the task
    assertThat(d.metrics.get(SchedulerEvent.RATE_ASKED))
        .isGreaterThanOrEqualTo(12)
        .isEqualTo(
            d.metrics.get(SchedulerEvent.RATE_GRANTED) + d.metrics.get(SchedulerEvent.RATE_LATER));
  }

  @Test
  void tasksWithoutALimitNeverAsk() {
    d.limits.put("partner-api", new RateLimit(1, 1, 1));
    for (int i = 0; i < 20; i++) {
      d.send(task(Driver.HANDLER, null));
    }
    assertThat(d.dispatches()).hasSize(20);
    assertThat(d.dependenciesOut.readRecordsToList()).isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.RATE_ASKED)).isZero();
  }

  @Test
  void aTaskOfAnUndefinedLimitWaitsUntilItIsDefined() {
    TaskEnvelope t = task(Driver.HANDLER, "partner-api");
    d.send(t);
    pump(Driver.HANDLER);
    run(3_000, Driver.HANDLER);
    assertThat(sent).isEmpty();
    assertThat(d.record(t.id()).state()).isEqualTo(TaskState.PENDING);
    assertThat(d.record(t.id()).timerKind()).isEqualTo(TimerKind.RATE);
    assertThat(d.metrics.get(SchedulerEvent.RATE_UNDEFINED)).isPositive();

    d.limits.put("partner-api", new RateLimit(1, 1, 1));
    run(1_500, Driver.HANDLER);
    assertThat(sent).hasSize(1);
    assertThat(d.record(t.id()).state()).isEqualTo(TaskState.DISPATCHED);
  }

  @Test
  void aDuplicateOrLateAnswerIsStale() {
    d.limits.put("partner-api", new RateLimit(100, 1, 1));
    TaskEnvelope t = task(Driver.HANDLER, "partner-api");
    d.send(t);
    List<TestRecord<String, byte[]>> records = d.dependenciesOut.readRecordsToList();
    assertThat(records).hasSize(2); // the ask, keyed by the limit, and its answer, by the task
    assertThat(records.get(0).key()).isEqualTo("limit:partner-api");
    assertThat(WireCodec.decodeControl(records.get(0).value()))
        .isInstanceOf(ControlCommand.RateAsk.class);
    assertThat(records.get(1).key()).isEqualTo(t.routingKey());
    ControlRecord answer = WireCodec.decodeControl(records.get(1).value());
    assertThat(answer).isInstanceOf(ControlCommand.RateAnswer.class);
    assertThat(d.dispatches()).hasSize(1);
    d.sendDependency(records.get(1).key(), answer); // a crash repeated it
    assertThat(d.dispatches()).isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.RATE_STALE)).isEqualTo(1);
    assertThat(d.record(t.id()).attempt()).isEqualTo(1);
  }

  @Test
  void aTaskCancelledWhileItWaitsForItsSlotNeverStarts() {
    d.limits.put("partner-api", new RateLimit(1, 1, 1));
    List<TaskEnvelope> ts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ts.add(task(Driver.HANDLER, "partner-api"));
      d.send(ts.get(i));
    }
    pump(Driver.HANDLER);
    assertThat(sent).hasSize(2); // 0.2 s and 1.2 s from now; the third is beyond the horizon
    TaskEnvelope last = ts.get(2);
    assertThat(d.record(last.id()).timerKind()).isEqualTo(TimerKind.RATE);
    d.sendControl(last.routingKey(), CancelCommand.of(last.id(), "no longer needed", d.now));
    run(5_000, Driver.HANDLER);
    assertThat(sent).hasSize(2);
    assertThat(d.record(last.id()).state()).isEqualTo(TaskState.CANCELLED);
  }

  @Test
  void aGrantThatArrivesAfterItsSlotIsLeftUnusedAndTheTaskAsksAgain() {
    d.limits.put("partner-api", new RateLimit(1, 1, 1));
    List<TaskEnvelope> ts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ts.add(task(Driver.HANDLER, "partner-api"));
      d.send(ts.get(i));
    }
    pump(Driver.HANDLER);
    TaskEnvelope last = ts.get(2);
    TaskRecord waiting = d.record(last.id());
    assertThat(waiting.timerKind()).isEqualTo(TimerKind.RATE);
    long asked = d.metrics.get(SchedulerEvent.RATE_ASKED);
    d.sendDependency(
        last.routingKey(),
        ControlCommand.RateAnswer.granted(last.id(), "partner-api", waiting.timerAt(), d.now - 10));
    assertThat(d.metrics.get(SchedulerEvent.RATE_LATE)).isEqualTo(1);
    assertThat(d.metrics.get(SchedulerEvent.RATE_ASKED)).isEqualTo(asked + 1);
    // the late grant was not used: the task asked again, first in line, and its new slot is ahead
    List<Dispatch> again = d.dispatches();
    assertThat(again).hasSize(1);
    assertThat(again.get(0).notBefore()).isGreaterThanOrEqualTo(d.now + 300);
  }

  @Test
  void aRetryAsksForANewSlot() {
    d.limits.put("handler/" + Driver.HANDLER, new RateLimit(100, 1, 1));
    TaskEnvelope t = task(Driver.HANDLER, null);
    d.send(t);
    pump(Driver.HANDLER);
    assertThat(sent).hasSize(1);
    Dispatch first = sent.get(0);
    d.sendResult(
        first,
        TaskResult.failed(
            t.id(), 1, Outcome.FAILED, new ErrorInfo("boom", "X", null), null, d.now, d.now, "w1"));
    run(2_000, Driver.HANDLER);
    assertThat(sent).hasSize(2);
    assertThat(sent.get(1).attempt()).isEqualTo(2);
    assertThat(d.metrics.get(SchedulerEvent.RATE_GRANTED)).isEqualTo(2);
  }

  @Test
  void anAttemptSentBackLateForItsSlotAsksAgainWithoutUsingAnAttempt() {
    d.limits.put("handler/" + Driver.HANDLER, new RateLimit(10, 1, 1));
    TaskEnvelope t = task(Driver.HANDLER, null);
    d.send(t);
    pump(Driver.HANDLER);
    assertThat(sent).hasSize(1);
    Dispatch first = sent.get(0);
    assertThat(first.slotTolerance()).isEqualTo(99L);
    assertThat(first.notBefore()).isNotNull();

    // a worker that got it only 2 s after its slot (a redelivery) sends it back unstarted
    d.advance(2_000);
    long back = d.now;
    d.sendResult(
        first,
        TaskResult.failed(
            t.id(),
            1,
            Outcome.SLOT_MISSED,
            new ErrorInfo("slot-missed", "late", null),
            null,
            d.now,
            d.now,
            "w1"));
    assertThat(d.metrics.get(SchedulerEvent.RATE_MISSED)).isEqualTo(1);
    run(6_000, Driver.HANDLER);
    assertThat(sent).hasSize(2);
    Dispatch second = sent.get(1);
    assertThat(second.attempt()).isEqualTo(2);
    // a new slot, ahead by about as much as the last one was missed
    assertThat(second.notBefore()).isGreaterThanOrEqualTo(back + 1_000);
    assertThat(second.slotTolerance()).isEqualTo(99L); // burst 1 at 10/s: one interval
    TaskRecord r = d.record(t.id());
    assertThat(r.state()).isEqualTo(TaskState.DISPATCHED);
    assertThat(r.failures()).isZero();
    assertThat(r.snoozes()).isZero();
    assertThat(r.history().get(0).outcome()).isEqualTo("SLOT_MISSED");
    assertThat(d.metrics.get(SchedulerEvent.RATE_GRANTED)).isEqualTo(2);
  }

  @Test
  void afterFiveMissedSlotsInARowTheNextDispatchCarriesNoTolerance() {
    d.limits.put("handler/" + Driver.HANDLER, new RateLimit(10, 1, 1));
    TaskEnvelope t = task(Driver.HANDLER, null);
    d.send(t);
    pump(Driver.HANDLER);
    for (int miss = 1; miss <= RateGate.MAX_MISSES; miss++) {
      assertThat(sent).hasSize(miss);
      Dispatch x = sent.get(miss - 1);
      assertThat(x.slotTolerance()).as("dispatch %d", miss).isNotNull();
      d.sendResult(
          x,
          TaskResult.failed(
              t.id(),
              x.attempt(),
              Outcome.SLOT_MISSED,
              new ErrorInfo("slot-missed", "late", null),
              null,
              d.now,
              d.now,
              "w1"));
      run(6_000, Driver.HANDLER);
    }
    assertThat(sent).hasSize(RateGate.MAX_MISSES + 1);
    assertThat(sent.get(RateGate.MAX_MISSES).slotTolerance()).isNull();
    assertThat(d.record(t.id()).failures()).isZero();
  }

  @Test
  void anAskOnTheControlTopicIsRefused() {
    d.limits.put("partner-api", new RateLimit(100, 1, 1));
    TaskEnvelope t = task(Driver.HANDLER, null);
    d.send(t);
    d.sendControl(
        "limit:partner-api",
        ControlCommand.RateAsk.of(t.id(), t.routingKey(), "partner-api", d.now + 5, 0, 0));
    assertThat(d.dependenciesOut.readRecordsToList()).isEmpty(); // no slot granted
    assertThat(d.metrics.get(SchedulerEvent.RATE_ASKED)).isZero();
    assertThat(d.metrics.get(SchedulerEvent.RATE_GRANTED)).isZero();
  }
}
