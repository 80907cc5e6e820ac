package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.HANDLER;
import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.AlertConfig;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.api.TaskView;
import io.tasklane.scheduler.internal.ops.Alerts;
import io.tasklane.scheduler.internal.ops.WorkerGroupWatcherTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wait timeout on the topology with the wall clock advanced by hand: it counts from the due
 * time, fires once while the task still waits for its first dispatch (the task keeps waiting),
 * never after a dispatch, and raises one grouped {@code wait-timeout} per handler and window.
 */
class WaitTimeoutTest {
  @TempDir Path dir;
  private final WorkerGroupWatcherTest.HandClock clock = new WorkerGroupWatcherTest.HandClock();
  private final List<Map<String, Object>> posts = new ArrayList<>();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private Driver d;

  @BeforeEach
  void start() {
    AlertConfig config =
        new AlertConfig(
            null, null, false, Duration.ofSeconds(60), List.of(), 100, List.of(), null, null);
    Alerts alerts = new Alerts(config, clock, registry, (payload, group) -> posts.add(payload));
    d = new Driver(dir, alerts);
  }

  @AfterEach
  void stop() {
    d.close();
  }

  private static TaskEnvelope task(long dueAt, long waitMs) {
    TaskEnvelope t = Driver.task(dueAt);
    return t.toBuilder().options(TaskOptions.builder().waitTimeoutMs(waitMs).build()).build();
  }

  private double waitTimeouts() {
    var c = registry.find("tasklane.scheduler.wait.timeouts").tag("handler", HANDLER).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void aHeldTaskPastItsWaitTimeoutRaisesOneGroupedAlertAndKeepsWaiting() {
    d.paused.add(HANDLER);
    TaskEnvelope a = task(T0 + 1_000, 2_000);
    TaskEnvelope b = task(T0 + 1_000, 2_000);
    d.send(a);
    d.send(b);
    d.advanceTo(T0 + 2_900);
    assertThat(d.record(a.id()).waitTimedOutAt()).isZero();
    assertThat(posts).isEmpty();

    d.advanceTo(T0 + 3_000); // due time + wait timeout
    TaskRecord r = d.record(a.id());
    assertThat(r.waitTimedOutAt()).isEqualTo(T0 + 3_000);
    assertThat(r.state()).isEqualTo(TaskState.PENDING);
    assertThat(d.record(b.id()).waitTimedOutAt()).isEqualTo(T0 + 3_000);
    assertThat(waitTimeouts()).isEqualTo(2.0);
    assertThat(posts).hasSize(1); // the second occurrence waits for the window's summary
    assertThat(posts.get(0))
        .containsEntry("rule", "wait-timeout")
        .containsEntry("key", HANDLER)
        .containsEntry("kind", "first");
    assertThat((String) posts.get(0).get("summary")).contains(HANDLER).contains("2000 ms");

    d.advanceTo(T0 + 60_000); // fires once: still PENDING, not raised again
    assertThat(waitTimeouts()).isEqualTo(2.0);
    assertThat(d.record(a.id()).state()).isEqualTo(TaskState.PENDING);
    assertThat(d.record(a.id()).waitTimedOutAt()).isEqualTo(T0 + 3_000);
    assertThat(d.dispatches()).isEmpty();

    d.paused.remove(HANDLER);
    d.advance(200);
    assertThat(d.dispatches()).hasSize(2); // resumed: both run; nothing was cancelled
  }

  @Test
  void aDelayedTaskCountsFromItsDueTimeAndADispatchedOneNeverTimesOut() {
    TaskEnvelope delayed = task(T0 + 10_000, 1_000);
    TaskEnvelope prompt = task(T0, 1_000);
    d.send(delayed);
    d.send(prompt);
    d.advanceTo(T0 + 5_000); // the delayed task is not due yet: its wait has not begun
    assertThat(d.record(delayed.id()).waitTimedOutAt()).isZero();
    assertThat(d.record(prompt.id()).state()).isEqualTo(TaskState.DISPATCHED);
    d.advanceTo(T0 + 10_900); // dispatched at its due time, within its wait timeout
    d.advanceTo(T0 + 20_000);
    assertThat(d.record(delayed.id()).waitTimedOutAt()).isZero();
    assertThat(d.record(prompt.id()).waitTimedOutAt()).isZero();
    assertThat(waitTimeouts()).isZero();
    assertThat(posts).isEmpty();
  }

  @Test
  void aTaskPausedFromItsDueTimeTimesOutAtDuePlusTimeout() {
    d.paused.add(HANDLER);
    TaskEnvelope t = task(T0 + 10_000, 1_000);
    d.send(t);
    d.advanceTo(T0 + 10_900);
    assertThat(d.record(t.id()).waitTimedOutAt()).isZero();
    d.advanceTo(T0 + 11_000);
    assertThat(d.record(t.id()).waitTimedOutAt()).isEqualTo(T0 + 11_000);
    assertThat(TaskView.json(d.record(t.id()))).contains("\"waitTimedOutAtIso\"");
  }

  @Test
  void aWaitTimerLostByACrashIsWrittenBackByTheRepairPassAndStillFires() {
    d.paused.add(HANDLER);
    TaskEnvelope t = task(T0 + 1_000, 2_000);
    d.send(t);
    KeyValueStore<Bytes, byte[]> index = d.driver.getKeyValueStore(Stores.DUE_INDEX);
    Bytes wait = DueIndexKey.of(T0 + 3_000, WaitTimers.timerId(t.id()));
    assertThat(index.get(wait)).isNotNull();
    // what a kill -9 under at_least_once can leave: the record without its entry
    index.delete(wait);
    d.advanceTo(T0 + 100); // the stream task's first ticks read the task store and write it back
    assertThat(index.get(wait)).isNotNull();
    d.advanceTo(T0 + 3_000);
    assertThat(d.record(t.id()).waitTimedOutAt()).isEqualTo(T0 + 3_000);
    assertThat(waitTimeouts()).isEqualTo(1.0);
  }
}
