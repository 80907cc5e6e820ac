package io.tasklane.scheduler.internal.lifecycle;

import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.scheduler.internal.Driver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The punctuator reads the due-index only from the next known due time on ({@link
 * TaskMemory#nextDueAt}), at its ticks and in the store's keys: a timer written after a scan,
 * earlier than what that scan saw, one beyond the look-ahead horizon and the rest of a scan cut at
 * its bound (entries of the last instant read included) still fire, never before their instant.
 */
class NextDueTest {
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

  @Test
  void aTimerWrittenAfterAScanAndEarlierThanTheNextKnownOneFiresAtItsInstant() {
    TaskEnvelope late = Driver.task(T0 + 8_000);
    d.send(late);
    d.advanceTo(T0 + 100); // a scan: the next due entry is at T0 + 8,000
    TaskEnvelope early = Driver.task(T0 + 3_000);
    d.send(early);

    d.advanceTo(T0 + 2_999);
    assertThat(d.dispatches()).isEmpty();
    d.advanceTo(T0 + 3_000);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(early.id());
    d.advanceTo(T0 + 7_999);
    assertThat(d.dispatches()).isEmpty();
    d.advanceTo(T0 + 8_000);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(late.id());
  }

  @Test
  void aScanCutAtItsBoundLeavesTheRestForTheNextTicks() {
    d.close();
    d = new Driver(dir, 3);
    long[] at = {1_000, 1_001, 1_002, 1_002, 1_002, 1_003, 1_004};
    List<String> due = new ArrayList<>();
    for (long a : at) {
      TaskEnvelope t = Driver.task(T0 + a);
      due.add(t.id());
      d.send(t);
    }
    d.advanceTo(T0 + 2_000); // reads 3 of the 7, the last of them one of three due at T0 + 1,002
    List<String> fired = new ArrayList<>();
    d.dispatches().forEach(x -> fired.add(x.id()));
    assertThat(fired).hasSize(3);
    for (long t = T0 + 2_100; t <= T0 + 2_300; t += 100) {
      d.advanceTo(t);
      d.dispatches().forEach(x -> fired.add(x.id()));
    }
    assertThat(fired).containsExactlyInAnyOrderElementsOf(due);
  }

  @Test
  void aTimerBeyondTheHorizonFiresAtItsInstant() {
    long at = T0 + 3 * DueIndex.NEXT_DUE_HORIZON_MS + 200; // on a tick: ticks are every 100 ms
    TaskEnvelope far = Driver.task(at);
    d.send(far);
    for (long t = T0 + 100; t < at; t += 100) {
      d.advanceTo(t);
    }
    d.advanceTo(at - 1);
    assertThat(d.dispatches()).isEmpty();
    d.advanceTo(at);
    assertThat(d.dispatches()).extracting(Dispatch::id).containsExactly(far.id());
    assertThat(d.dispatches()).isEmpty();
  }
}
