package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clock skew: the scheduler dispatches by its own clock only. {@code dueAt} and {@code createdAt}
 * come from the application's clock, which may run ahead of or behind the scheduler's.
 */
class ClockTest {
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

  /** A task due at {@code dueAt} created by an app whose clock is {@code skewMs} off. */
  private static TaskEnvelope task(long dueAt, long skewMs) {
    TaskEnvelope t = Driver.task(dueAt);
    return t.toBuilder().dueAt(dueAt).createdAt(T0 + skewMs).build();
  }

  @Test
  void neverDispatchesBeforeDueAtByItsOwnClockWhateverTheAppClockSays() {
    Map<String, Long> due = new HashMap<>();
    long[] skews = {-3_600_000, -5_000, 0, 5_000, 3_600_000};
    for (int i = 0; i < 40; i++) {
      long dueAt = T0 + 1 + i * 97L; // 1 ms to about 3.8 s ahead of the scheduler's clock
      TaskEnvelope t = task(dueAt, skews[i % skews.length]);
      due.put(t.id(), dueAt);
      d.send(t);
    }
    assertThat(d.dispatches()).isEmpty(); // none is due yet by the scheduler's clock

    List<Dispatch> all = new ArrayList<>();
    for (long t = T0; t <= T0 + 4_500; t += 7) {
      d.advanceTo(t);
      for (Dispatch x : d.dispatches()) {
        assertThat(x.dispatchedAt()).as(x.id()).isGreaterThanOrEqualTo(due.get(x.id()));
        assertThat(x.dispatchedAt()).isEqualTo(t); // sent at the tick that saw it due
        all.add(x);
      }
    }
    assertThat(all).hasSize(40);
    // Lateness is at most one punctuation interval (100 ms) plus one step of this loop (7 ms).
    assertThat(all).allSatisfy(x -> assertThat(x.dispatchedAt() - due.get(x.id())).isLessThan(107));
    assertThat(d.metrics.lateness).allSatisfy(l -> assertThat(l).isBetween(0L, 107L));
  }

  @Test
  void aTaskDueByTheAppClockButNotByTheSchedulersWaitsAndARetryCountsFromTheSchedulersClock() {
    // The app's clock runs 10 s ahead: it thinks the task is due now, the scheduler does not.
    TaskEnvelope ahead = task(T0 + 10_000, 10_000);
    d.send(ahead);
    d.advanceTo(T0 + 9_999);
    assertThat(d.dispatches()).isEmpty();
    d.advanceTo(T0 + 10_050);
    Dispatch first = d.dispatches().get(0);
    assertThat(first.dispatchedAt()).isGreaterThanOrEqualTo(T0 + 10_000);

    // The worker's clock is 1 h behind: its timestamps do not move the retry (backoff 10 s).
    long workerNow = d.now - 3_600_000;
    d.sendResult(
        TaskResult.failed(
            ahead.id(),
            first.attempt(),
            io.tasklane.core.Outcome.FAILED,
            new io.tasklane.core.ErrorInfo("x", "boom", null),
            null,
            workerNow,
            workerNow,
            "w"));
    long failedAt = d.now;
    d.advanceTo(failedAt + 9_999);
    assertThat(d.dispatches()).isEmpty();
    d.advanceTo(failedAt + 10_100);
    assertThat(d.dispatches())
        .singleElement()
        .satisfies(x -> assertThat(x.dispatchedAt()).isGreaterThanOrEqualTo(failedAt + 10_000));
  }
}
