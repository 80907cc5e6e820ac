package io.tasklane.scheduler.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exported event names are what dashboards and alert rules select on: they never change. */
class MicrometerMetricsTest {
  private static final List<String> EXPORTED_EVENTS =
      List.of(
          "admitted",
          "duplicate",
          "duplicate-conflict",
          "cancelled-before-arrival",
          "invalid.tasks",
          "invalid.results",
          "invalid.control",
          "wrong-key.tasks",
          "wrong-key.results",
          "wrong-key.control",
          "error.tasks",
          "error.results",
          "error.control",
          "error.timer",
          "result.unknown",
          "result.fenced",
          "result.after-cancel",
          "result.mismatch",
          "succeeded",
          "no-handler",
          "queued",
          "priority.passed",
          "timeout",
          "dead",
          "dlt.missing",
          "purged",
          "timer.stale",
          "timers.yielded",
          "timer.healed",
          "timer.heal-unreadable",
          "cancel.early",
          "cancel.ignored",
          "cancelled",
          "retry-dead.ignored",
          "trigger.ignored",
          "trigger.queued",
          "discard.ignored",
          "waiters.cap",
          "dependency-done.ignored",
          "dependency-cycle",
          "dependency-probe.dropped",
          "produce.too-large",
          "produce.unserializable",
          "schedule.defined",
          "schedule.stale",
          "schedule.duplicate",
          "schedule.deleted",
          "schedule.purged",
          "schedule.fired",
          "dispatched.ahead",
          "admitted.here",
          "schedule.misfire-skipped",
          "schedule.overlap-skipped",
          "schedule.queued",
          "schedule.queue-full",
          "schedule.replaced",
          "schedule.triggered",
          "schedule.trigger-duplicate",
          "schedule.paused-skipped",
          "schedule.fire-done",
          "schedule.fire-done-unknown",
          "schedule.child-started",
          "schedule.child-too-deep",
          "schedule.workers-unknown",
          "invalid.logs",
          "index.healed",
          "dispatch.resent",
          "paused.held",
          "interrupt.sent",
          "lane.wait",
          "rate.asked",
          "rate.granted",
          "rate.later",
          "rate.late",
          "rate.undefined",
          "rate.stale",
          "rate.missed",
          "unique.released",
          "batch.callback",
          "batch.late");

  @Test
  void theLaneGaugesReadZeroWhileStreamsIsNotRunning() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new MicrometerMetrics(registry, () -> null);
    for (String kind : java.util.List.of("lanes", "active", "blocked", "waiting")) {
      assertThat(registry.get("tasklane.scheduler.lanes").tag("kind", kind).gauge().value())
          .as(kind)
          .isZero();
    }
  }

  @Test
  void everyEventIsCountedUnderItsExportedTag() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    MicrometerMetrics metrics = new MicrometerMetrics(registry, () -> null);
    for (SchedulerEvent event : SchedulerEvent.values()) {
      metrics.count(event);
    }
    metrics.count(SchedulerEvent.DUPLICATE);

    assertThat(Arrays.stream(SchedulerEvent.values()).map(SchedulerEvent::tag))
        .containsExactlyInAnyOrderElementsOf(EXPORTED_EVENTS);
    for (String tag : EXPORTED_EVENTS) {
      Counter c = registry.get("tasklane.scheduler.events").tag("event", tag).counter();
      assertThat(c.count()).as(tag).isEqualTo(tag.equals("duplicate") ? 2 : 1);
    }
  }

  @Test
  void theInputsEventsAreNamedAfterTheInput() {
    for (String input : List.of("tasks", "results", "control")) {
      assertThat(SchedulerEvent.invalid(input).tag()).isEqualTo("invalid." + input);
      assertThat(SchedulerEvent.wrongKey(input).tag()).isEqualTo("wrong-key." + input);
      assertThat(SchedulerEvent.error(input).tag()).isEqualTo("error." + input);
    }
  }

  @Test
  void deadLettersKeepTheirNameAndTags() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new MicrometerMetrics(registry, () -> null).deadLettered("timer", "timer-failed");

    assertThat(
            registry
                .get("tasklane.scheduler.dead.letters")
                .tag("source", "timer")
                .tag("reason", "timer-failed")
                .counter()
                .count())
        .isEqualTo(1);
  }
}
