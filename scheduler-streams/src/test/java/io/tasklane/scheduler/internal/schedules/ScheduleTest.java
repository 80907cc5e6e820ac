package io.tasklane.scheduler.internal.schedules;

import static io.tasklane.scheduler.internal.Driver.HANDLER;
import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.Shard;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Unschedule;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.lifecycle.DueIndexKey;
import io.tasklane.scheduler.internal.lifecycle.Outputs;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import io.tasklane.scheduler.internal.lifecycle.TimerKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recurring schedules through the topology with the wall clock driven by hand: a fire's tasks go to
 * {@code tasks}, come back through admission and are dispatched like any task.
 */
class ScheduleTest {
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

  static ScheduleDefinition.Builder every10s(String name) {
    return ScheduleDefinition.builder().name(name).version(1).handler(HANDLER).every("10s");
  }

  void define(ScheduleDefinition s) {
    d.send(s.name(), s);
  }

  static List<Long> fireTimes(List<Dispatch> dispatches) {
    return dispatches.stream().map(x -> x.task().dueAt()).toList();
  }

  @Test
  void aFixedRateFiresOneTaskPerFireWithTheDerivedId() {
    define(every10s("ping").build());
    d.runTo(T0 + 25_000);
    List<Dispatch> out = d.dispatches();
    assertThat(fireTimes(out)).containsExactly(T0, T0 + 10_000, T0 + 20_000);
    assertThat(out.get(1).id())
        .isEqualTo(Driver.taskOf("ping", TaskIds.forScheduleFire("ping", T0 + 10_000, -1)));
    assertThat(out.get(1).task().headers())
        .containsEntry(ScheduleMachine.HEADER_SCHEDULE, "ping")
        .containsEntry(ScheduleMachine.HEADER_FIRE_TIME, String.valueOf(T0 + 10_000));
    assertThat(out.get(1).task().shard()).isNull();
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_FIRED)).isEqualTo(3);
  }

  @Test
  void cronWithFiveSixAndSevenFields() {
    define(
        ScheduleDefinition.builder()
            .name("five")
            .version(1)
            .handler(HANDLER)
            .cron("*/1 * * * *")
            .build());
    define(
        ScheduleDefinition.builder()
            .name("six")
            .version(1)
            .handler(HANDLER)
            .cron("*/30 * * * * ?")
            .build());
    define(
        ScheduleDefinition.builder()
            .name("seven")
            .version(1)
            .handler(HANDLER)
            .cron("15 * * * * ? *")
            .build());
    d.runTo(T0 + 61_000);
    List<Dispatch> out = d.dispatches();
    assertThat(out.stream().filter(x -> name(x).equals("five")).map(x -> x.task().dueAt()))
        .containsExactly(T0, T0 + 60_000);
    assertThat(out.stream().filter(x -> name(x).equals("six")).map(x -> x.task().dueAt()))
        .containsExactly(T0, T0 + 30_000, T0 + 60_000);
    assertThat(out.stream().filter(x -> name(x).equals("seven")).map(x -> x.task().dueAt()))
        .containsExactly(T0 + 15_000);
  }

  static String name(Dispatch x) {
    return x.task().headers().get(ScheduleMachine.HEADER_SCHEDULE);
  }

  @Test
  void berlinSpringForwardFiresOnceAtTheEndOfTheGapAndFallBackFiresOnce() {
    define(
        ScheduleDefinition.builder()
            .name("nightly")
            .version(1)
            .handler(HANDLER)
            .cron("30 2 * * *")
            .zone("Europe/Berlin")
            .build());
    // Days at a time, each fire found within a tick: advance to just before, then just after.
    List<String> fires =
        List.of(
            "2027-03-27T01:30:00Z",
            "2027-03-28T01:00:00Z",
            "2027-03-29T00:30:00Z",
            "2027-10-30T00:30:00Z",
            "2027-10-31T00:30:00Z",
            "2027-11-01T01:30:00Z");
    for (String f : fires) {
      long t = Instant.parse(f).toEpochMilli();
      d.advanceTo(t - 500);
      d.advanceTo(t + 100);
      if (f.equals("2027-10-31T00:30:00Z")) {
        d.advanceTo(t + 3_600_000 + 100); // the second 02:30 (CET) fires nothing
      }
    }
    assertThat(fireTimes(d.dispatches()))
        .containsExactlyElementsOf(
            fires.stream().map(f -> Instant.parse(f).toEpochMilli()).toList());
  }

  /**
   * Fires at T0; then the scheduler is "down" until {@code upAt} (one tick there); returns the
   * fires made then.
   */
  List<Long> afterDowntime(String misfire, long upAt) {
    define(every10s("m").misfire(misfire).build());
    d.advanceTo(T0 + 100);
    assertThat(fireTimes(d.dispatches())).containsExactly(T0);
    d.advanceTo(upAt);
    List<Long> made = fireTimes(d.dispatches());
    d.advanceTo(T0 + 100_100);
    assertThat(fireTimes(d.dispatches()))
        .as("the next fire after the downtime")
        .containsExactly(T0 + 100_000);
    return made;
  }

  @Test
  void misfireSkip() {
    assertThat(afterDowntime("SKIP", T0 + 95_500)).isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_MISFIRE_SKIPPED)).isEqualTo(1);
  }

  @Test
  void misfireFireOnce() {
    assertThat(afterDowntime("FIRE_ONCE", T0 + 95_500)).containsExactly(T0 + 90_000);
  }

  @Test
  void misfireFireOnceIfLateByAtMostBeyondTheThresholdSkips() {
    assertThat(afterDowntime("FIRE_ONCE_IF_LATE_BY_AT_MOST(5s)", T0 + 95_500)).isEmpty();
  }

  @Test
  void misfireFireOnceIfLateByAtMostWithinTheThresholdFiresOnce() {
    assertThat(afterDowntime("FIRE_ONCE_IF_LATE_BY_AT_MOST(5s)", T0 + 94_000))
        .containsExactly(T0 + 90_000);
  }

  @Test
  void misfireFireAllUpToMax() {
    assertThat(afterDowntime("FIRE_ALL(max 3)", T0 + 95_500))
        .containsExactly(T0 + 70_000, T0 + 80_000, T0 + 90_000);
  }

  @Test
  void broadcastMakesOneTaskPerShard() {
    define(every10s("fan").routing(ScheduleDefinition.Routing.BROADCAST).shards(3).build());
    d.advanceTo(T0 + 100);
    List<Dispatch> out = d.dispatches();
    assertThat(out)
        .extracting(x -> x.task().shard())
        .containsExactlyInAnyOrder(new Shard(0, 3), new Shard(1, 3), new Shard(2, 3));
    assertThat(out)
        .extracting(Dispatch::id)
        .containsExactlyInAnyOrder(
            TaskIds.forScheduleFire("fan", T0, 0),
            TaskIds.forScheduleFire("fan", T0, 1),
            TaskIds.forScheduleFire("fan", T0, 2));
  }

  @Test
  void anOlderVersionIsIgnoredAndPauseResumeAreNewVersions() {
    define(every10s("v").version(2).build());
    define(every10s("v").version(1).every("1s").build());
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_STALE)).isEqualTo(1);
    d.runTo(T0 + 15_000);
    assertThat(fireTimes(d.dispatches())).containsExactly(T0, T0 + 10_000);
    define(every10s("v").version(3).enabled(false).build());
    d.runTo(T0 + 47_000);
    assertThat(d.dispatches()).isEmpty();
    assertThat(pausedFires("v")).containsExactly(T0 + 20_000, T0 + 30_000, T0 + 40_000);
    // resumed 7 s after the last skipped fire: late by more than the default 5 s, so not made
    define(every10s("v").version(4).build());
    d.runTo(T0 + 55_000);
    assertThat(fireTimes(d.dispatches())).containsExactly(T0 + 50_000);
  }

  @Test
  void aResumeFiresTheFireMissedWhilePausedOnceWhenTheMisfirePolicyKeepsIt() {
    define(every10s("r").build());
    d.runTo(T0 + 5_000);
    assertThat(fireTimes(d.dispatches())).containsExactly(T0);
    define(every10s("r").version(2).enabled(false).build());
    d.runTo(T0 + 33_000);
    assertThat(d.dispatches()).isEmpty();
    assertThat(pausedFires("r")).containsExactly(T0 + 10_000, T0 + 20_000, T0 + 30_000);
    // resumed 3 s after the fire at 30 s: FIRE_ONCE_IF_LATE_BY_AT_MOST(5s) makes it, once
    define(every10s("r").version(3).build());
    d.runTo(T0 + 45_000);
    assertThat(fireTimes(d.dispatches())).containsExactly(T0 + 30_000, T0 + 40_000);
    assertThat(pausedFires("r")).containsExactly(T0 + 10_000, T0 + 20_000);
    // FIRE_ALL(max 2) at a resume makes the two latest fires missed while paused, oldest first
    define(every10s("r").version(4).enabled(false).build());
    d.runTo(T0 + 85_000);
    define(every10s("r").version(5).misfire("FIRE_ALL(max 2)").build());
    d.runTo(T0 + 86_000);
    assertThat(fireTimes(d.dispatches())).containsExactly(T0 + 70_000, T0 + 80_000);
  }

  /** The fire instants recorded as SKIPPED (paused), oldest first. */
  private List<Long> pausedFires(String name) {
    return d.schedule(name).fires().stream()
        .filter(f -> f.outcome() == FireRecord.Outcome.SKIPPED && "paused".equals(f.reason()))
        .map(FireRecord::fireAt)
        .toList();
  }

  @Test
  void unscheduleDeletesTheTimerAndAReplayedDefinitionDoesNotComeBack() {
    ScheduleDefinition s = every10s("gone").build();
    define(s);
    d.advanceTo(T0 + 100);
    assertThat(d.dispatches()).hasSize(1);
    d.send("gone", Unschedule.of("gone", 1, d.now));
    define(s);
    d.runTo(T0 + 60_000);
    assertThat(d.dispatches()).isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_DELETED)).isEqualTo(1);
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_STALE)).isEqualTo(1);
  }

  @Test
  void aDeletedScheduleIsForgottenWithItsHistoryOnceTheRetentionPassed() {
    ScheduleDefinition s = every10s("churn").build();
    define(s);
    d.runTo(T0 + 25_000);
    for (Dispatch x : d.dispatches()) {
      d.sendResult(x, TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1"));
    }
    d.send("churn", Unschedule.of("churn", 1, d.now));
    long deletedAt = d.now;
    assertThat(d.schedule("churn").deleted()).isTrue();
    assertThat(d.schedule("churn").fires()).as("history kept while retained").hasSize(3);

    d.advanceTo(deletedAt + Duration.ofDays(7).toMillis() - 1_000);
    define(s);
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_STALE))
        .as("a replayed definition is refused while the deletion is retained")
        .isEqualTo(1);

    d.advanceTo(deletedAt + Duration.ofDays(7).toMillis() + 100);
    assertThat(d.schedule("churn")).isNull();
    KeyValueStore<Bytes, byte[]> log = d.driver.getKeyValueStore(Stores.SCHEDULE_FIRES);
    try (KeyValueIterator<Bytes, byte[]> it = log.all()) {
      assertThat(it.hasNext()).as("its logged fires are gone too").isFalse();
    }
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_PURGED)).isEqualTo(1);
  }

  @Test
  void aScheduleDefinedAgainAfterItsDeletionIsNotPurged() {
    define(every10s("back").build());
    d.advanceTo(T0 + 100);
    d.send("back", Unschedule.of("back", 1, d.now));
    define(every10s("back").version(2).build());
    d.advanceTo(T0 + Duration.ofDays(7).toMillis() + 10_100);
    assertThat(d.schedule("back").deleted()).isFalse();
    assertThat(d.schedule("back").definition().version()).isEqualTo(2);
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_PURGED)).isZero();
  }

  @Test
  void startAndEndBoundTheFires() {
    define(every10s("window").startAt(T0 + 25_000).endAt(T0 + 60_000).build());
    d.runTo(T0 + 120_000);
    assertThat(fireTimes(d.dispatches()))
        .containsExactly(T0 + 25_000, T0 + 35_000, T0 + 45_000, T0 + 55_000);
  }

  @Test
  void aReplayedDefinitionAndReplayedFiresMakeExactlyOneTaskPerFire() {
    ScheduleDefinition s = every10s("once").build();
    define(s);
    define(s);
    d.advanceTo(T0 + 100);
    define(s);
    List<TestRecord<String, byte[]>> made = d.read(d.topics.tasks());
    for (TestRecord<String, byte[]> r : made) {
      d.tasks.pipeInput(new TestRecord<>(r.key(), r.value(), Instant.ofEpochMilli(d.now)));
    }
    d.runTo(T0 + 10_500);
    define(s);
    assertThat(fireTimes(d.dispatches())).containsExactly(T0, T0 + 10_000);
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_DUPLICATE)).isEqualTo(3);
    assertThat(d.metrics.get(SchedulerEvent.DUPLICATE)).isGreaterThanOrEqualTo(1);
  }

  @Test
  void invalidDefinitionsGoToTheSchedulerDltNamingTheField() {
    define(every10s("q").children(List.of("q")).build());
    define(
        ScheduleDefinition.builder()
            .name("c")
            .version(1)
            .handler(HANDLER)
            .cron("61 * * * *")
            .build());
    define(every10s("z").zone("Nowhere/City").build());
    d.send("other-key", every10s("k").build());
    d.runTo(T0 + 20_000);
    assertThat(d.dispatches()).isEmpty();
    List<TestRecord<String, byte[]>> dlt = d.read(d.topics.schedulerDlt());
    assertThat(dlt).extracting(TestRecord::key).containsExactly("q", "c", "z", "other-key");
    assertThat(dlt)
        .extracting(r -> header(r, Outputs.REASON))
        .containsExactly("invalid", "invalid", "invalid", "wrong-key");
    assertThat(header(dlt.get(0), Outputs.ERROR_MESSAGE))
        .contains("children: 'q' is the schedule itself");
    assertThat(header(dlt.get(1), Outputs.ERROR_MESSAGE)).contains("cron: '61 * * * *'");
    assertThat(header(dlt.get(2), Outputs.ERROR_MESSAGE)).contains("zone: 'Nowhere/City'");
  }

  long scheduleTimers() {
    return scheduleTimerTimes().size();
  }

  /** The instants of the schedule timers in the due-index, in index order. */
  List<Long> scheduleTimerTimes() {
    KeyValueStore<Bytes, byte[]> index = d.driver.getKeyValueStore(Stores.DUE_INDEX);
    List<Long> at = new java.util.ArrayList<>();
    try (var it = index.all()) {
      while (it.hasNext()) {
        var kv = it.next();
        if (kv.value[0] == TimerKind.SCHEDULE.code) {
          at.add(DueIndexKey.dueAt(kv.key));
        }
      }
    }
    return at;
  }

  @Test
  void unscheduleSwapsTheFireTimerForThePurgeTimerAndPauseKeepsItToRecordSkippedFires() {
    long retention = Duration.ofDays(7).toMillis();
    define(every10s("a").build());
    define(every10s("b").build());
    assertThat(scheduleTimerTimes()).containsExactly(T0, T0);
    d.send("a", Unschedule.of("a", 1, d.now));
    define(every10s("b").version(2).enabled(false).build());
    assertThat(scheduleTimerTimes()).containsExactly(T0, T0 + retention);
    d.send("b", Unschedule.of("b", 2, d.now));
    assertThat(scheduleTimerTimes()).containsExactly(T0 + retention, T0 + retention);
  }

  @Test
  void aScheduleTimerLostByACrashIsWrittenBackAtTheFirstTick() {
    define(every10s("lost").build());
    KeyValueStore<Bytes, byte[]> index = d.driver.getKeyValueStore(Stores.DUE_INDEX);
    index.delete(DueIndexKey.of(T0, ScheduleStore.timerId("lost")));
    assertThat(scheduleTimers()).isZero();
    d.advanceTo(T0 + 100); // the repair writes it back; the next tick fires it
    d.advanceTo(T0 + 200);
    assertThat(fireTimes(d.dispatches())).containsExactly(T0);
    assertThat(d.metrics.get(SchedulerEvent.TIMER_HEALED)).isEqualTo(1);
  }

  @Test
  void aLargeStoreHasItsLostTimersWrittenBackASliceAtATime() {
    int n = 2_100; // more than one slice (DuePunctuator's 2,000)
    for (int i = 0; i < n; i++) {
      define(every10s("many" + i).startAt(T0 + 3_600_000L).build());
    }
    KeyValueStore<Bytes, byte[]> index = d.driver.getKeyValueStore(Stores.DUE_INDEX);
    for (int i = 0; i < n; i++) {
      index.delete(DueIndexKey.of(T0 + 3_600_000L, ScheduleStore.timerId("many" + i)));
    }
    assertThat(scheduleTimers()).isZero();

    d.advanceTo(T0 + 100);
    assertThat(d.metrics.get(SchedulerEvent.TIMER_HEALED))
        .as("the first tick reads one slice, not the whole store")
        .isBetween(1L, 2_000L);
    d.runTo(T0 + 60_000);
    assertThat(d.metrics.get(SchedulerEvent.TIMER_HEALED)).isEqualTo(n);
    assertThat(scheduleTimers()).isEqualTo(n);
  }

  private static String header(TestRecord<String, byte[]> r, String name) {
    Header h = r.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }
}
