package io.tasklane.scheduler.internal.schedules;

import static io.tasklane.scheduler.internal.Driver.HANDLER;
import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleDefinition.Overlap;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.Unschedule;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.api.ScheduleView;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;
import io.tasklane.scheduler.internal.lifecycle.TimerKind;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code schedule-lead}: an {@code ALLOW} schedule's fire is made 2 s ahead as a task due at the
 * instant, which its own timer dispatches at the instant, never before; a fire made ahead runs even
 * when the schedule is paused or deleted before its instant; other overlap policies fire at the
 * instant.
 */
class ScheduleLeadTest {
  @TempDir Path dir;
  Driver d;

  @BeforeEach
  void start() {
    d = Driver.withScheduleLead(dir, Duration.ofSeconds(2));
  }

  @AfterEach
  void stop() {
    d.close();
  }

  static ScheduleDefinition.Builder every10s(String name) {
    return ScheduleDefinition.builder().name(name).version(1).handler(HANDLER).every("10s");
  }

  static String fireTask(String name, long at) {
    return Driver.taskOf(name, TaskIds.forScheduleFire(name, at, -1));
  }

  void succeedAll() {
    for (Dispatch x : d.dispatches()) {
      d.sendResult(x, TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1"));
    }
  }

  @Test
  void anAllowFireIsMadeAheadAndDispatchedAtItsInstantNotBefore() {
    d.send("a", every10s("a").build());
    d.advanceTo(T0 + 100);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(fireTask("a", T0));

    d.advanceTo(T0 + 8_100);
    TaskRecord ahead = d.record(fireTask("a", T0 + 10_000));
    assertThat(ahead).as("made 2 s ahead").isNotNull();
    assertThat(ahead.state()).isEqualTo(TaskState.PENDING);
    assertThat(ahead.task().dueAt()).isEqualTo(T0 + 10_000);
    assertThat(d.schedule("a").nextFireAt()).isEqualTo(T0 + 20_000);

    d.advanceTo(T0 + 9_900);
    assertThat(d.dispatches()).as("never before the instant").isEmpty();
    d.advanceTo(T0 + 10_000);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(fireTask("a", T0 + 10_000));
    FireRecord fire = d.schedule("a").fires().get(d.schedule("a").fires().size() - 1);
    assertThat(fire.fireAt()).isEqualTo(T0 + 10_000);
    assertThat(fire.outcome()).isEqualTo(FireRecord.Outcome.RUNNING);
    assertThat(d.metrics.get(SchedulerEvent.TIMER_STALE)).isZero();
  }

  @Test
  void aFireMadeAheadStillRunsAfterAPauseOrADeletionAndTheNextOneIsNotMade() {
    d.send("p", every10s("p").build());
    d.send("x", every10s("x").build());
    d.advanceTo(T0 + 100);
    succeedAll();
    d.advanceTo(T0 + 8_100);
    assertThat(d.record(fireTask("p", T0 + 10_000)).state()).isEqualTo(TaskState.PENDING);
    assertThat(d.record(fireTask("x", T0 + 10_000)).state()).isEqualTo(TaskState.PENDING);
    JsonNode line = ScheduleView.summary("p", d.schedule("p"), d.now);
    assertThat(line.get("lastFire").get("fireAt").asLong())
        .as("the list's last fire is the one whose instant passed, not the one made ahead")
        .isEqualTo(T0);
    assertThat(line.get("lastFire").get("outcome").asText()).isEqualTo("SUCCEEDED");

    d.advanceTo(T0 + 9_000);
    d.send("p", every10s("p").version(2).enabled(false).build());
    d.send("x", Unschedule.of("x", 1, d.now));
    d.advanceTo(T0 + 10_000);
    assertThat(d.dispatches())
        .extracting(Dispatch::id)
        .containsExactlyInAnyOrder(fireTask("p", T0 + 10_000), fireTask("x", T0 + 10_000));

    d.advanceTo(T0 + 20_100);
    assertThat(d.dispatches()).isEmpty();
    assertThat(d.record(fireTask("p", T0 + 20_000))).isNull();
    assertThat(d.record(fireTask("x", T0 + 20_000))).isNull();
    FireRecord skipped = d.schedule("p").fires().get(d.schedule("p").fires().size() - 1);
    assertThat(skipped.fireAt()).isEqualTo(T0 + 20_000);
    assertThat(skipped.outcome()).isEqualTo(FireRecord.Outcome.SKIPPED);
  }

  @Test
  void otherOverlapPoliciesMakeTheFireAtItsInstant() {
    d.send("s", every10s("s").overlap(Overlap.SKIP_IF_RUNNING).build());
    d.advanceTo(T0 + 100);
    succeedAll();
    d.advanceTo(T0 + 9_900);
    assertThat(d.record(fireTask("s", T0 + 10_000))).isNull();
    d.advanceTo(T0 + 10_000);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(fireTask("s", T0 + 10_000));
  }

  @Test
  void aFireMadeAheadIsDispatchedAtOnceHeldUntilItsInstantWhenTheWorkersHold() {
    d.workers.holding.add(HANDLER);
    d.send("h", every10s("h").timeoutMs(30_000).build());
    d.advanceTo(T0 + 100);
    succeedAll();
    d.advanceTo(T0 + 8_100);
    java.util.List<Dispatch> sent = d.dispatches();
    assertThat(sent).extracting(Dispatch::id).containsExactly(fireTask("h", T0 + 10_000));
    Dispatch ahead = sent.get(0);
    assertThat(ahead.notBefore()).as("held by the worker until the instant").isEqualTo(T0 + 10_000);
    assertThat(ahead.dispatchedAt()).isLessThan(T0 + 10_000);
    TaskRecord r = d.record(fireTask("h", T0 + 10_000));
    assertThat(r.state()).isEqualTo(TaskState.DISPATCHED);
    assertThat(r.timerKind()).isEqualTo(TimerKind.DEADLINE);
    assertThat(ahead.deadline())
        .as("the attempt's time counts from the instant, not from the dispatch")
        .isEqualTo(r.timerAt())
        .isGreaterThanOrEqualTo(T0 + 10_000 + 30_000);

    d.advanceTo(T0 + 10_000);
    assertThat(d.dispatches()).as("not dispatched a second time at the instant").isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.DISPATCHED_AHEAD)).isEqualTo(1);
    d.sendResult(ahead, TaskResult.succeeded(ahead.id(), 1, d.now, d.now, "w1"));
    assertThat(d.record(fireTask("h", T0 + 10_000)).state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(d.metrics.get(SchedulerEvent.TIMER_STALE)).isZero();
  }

  @Test
  void aFireAtItsInstantAndARetryAreNeverSentAheadAndHoldingStopsWhenAWorkerCannot() {
    d.workers.holding.add(HANDLER);
    d.send("r", every10s("r").maxAttempts(3).build());
    d.advanceTo(T0 + 100);
    Dispatch first = d.dispatches().get(0);
    assertThat(first.notBefore()).as("made at its instant: nothing to hold").isNull();
    d.sendResult(
        first,
        TaskResult.failed(
            first.id(),
            1,
            io.tasklane.core.Outcome.FAILED,
            new io.tasklane.core.ErrorInfo("x", "y", null),
            null,
            d.now,
            d.now,
            "w1"));
    assertThat(d.record(first.id()).state()).isEqualTo(TaskState.RETRYING);
    assertThat(d.dispatches()).as("a retry waits for its own timer").isEmpty();

    d.workers.holding.clear();
    d.advanceTo(T0 + 8_100);
    assertThat(d.dispatches())
        .as("no worker that holds: the fire made ahead waits for its instant")
        .extracting(Dispatch::id)
        .doesNotContain(fireTask("r", T0 + 10_000));
    assertThat(d.record(fireTask("r", T0 + 10_000)).state()).isEqualTo(TaskState.PENDING);
  }
}
