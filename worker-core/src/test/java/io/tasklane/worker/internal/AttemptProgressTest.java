package io.tasklane.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TaskLogLine;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code TaskContext.progress}: at most one update a second per attempt, the latest pending one
 * sent when its second comes or when the attempt ends, nothing after the end, and a failing send
 * never reaches the handler.
 */
class AttemptProgressTest {
  final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  final List<TaskLogLine> sent = new CopyOnWriteArrayList<>();
  final List<Long> sentAt = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    timers.shutdownNow();
  }

  private AttemptProgress progress() {
    return new AttemptProgress(
        "t-1",
        2,
        "w1",
        line -> {
          sentAt.add(System.currentTimeMillis());
          sent.add(line);
        },
        Clock.systemUTC(),
        timers);
  }

  @Test
  void theFirstUpdateGoesAtOnceAndTheLatestOfTheNextSecondAfterIt() {
    AttemptProgress p = progress();
    p.report(10, "started");
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).percent()).isEqualTo(10);
    assertThat(sent.get(0).level()).isEqualTo(TaskLogLine.PROGRESS);
    assertThat(sent.get(0).attempt()).isEqualTo(2);

    p.report(20, "a");
    p.report(30, "b");
    assertThat(sent).as("within the second: pending").hasSize(1);
    await().atMost(Duration.ofSeconds(5)).until(() -> sent.size() == 2);
    assertThat(sent.get(1).percent()).isEqualTo(30);
    assertThat(sentAt.get(1) - sentAt.get(0))
        .as("the second update goes a second after the first")
        .isGreaterThanOrEqualTo(AttemptProgress.EVERY_MS - 20);
  }

  @Test
  void theEndSendsThePendingUpdateAndLaterOnesAreIgnored() {
    AttemptProgress p = progress();
    p.report(50, "half");
    p.report(100, "done");
    p.flush();
    assertThat(sent).extracting(TaskLogLine::percent).containsExactly(50, 100);
    p.report(70, "after the end");
    p.flush();
    assertThat(sent).hasSize(2);
  }

  @Test
  void percentIsClampedAndALongMessageCut() {
    AttemptProgress p = progress();
    p.report(250, "x".repeat(2_000));
    assertThat(sent.get(0).percent()).isEqualTo(100);
    assertThat(sent.get(0).message()).hasSizeLessThanOrEqualTo(TaskLogLine.MAX_PROGRESS_CHARS);
    AttemptProgress q = progress();
    q.report(-5, null);
    assertThat(sent.get(1).percent()).isZero();
  }

  @Test
  void aSendThatFailsNeverReachesTheHandler() {
    AttemptProgress p =
        new AttemptProgress(
            "t-1",
            1,
            "w1",
            line -> {
              throw new IllegalStateException("buffer full");
            },
            Clock.systemUTC(),
            timers);
    org.assertj.core.api.Assertions.assertThatCode(
            () -> {
              p.report(10, null);
              p.report(20, null);
              p.flush();
            })
        .doesNotThrowAnyException();
  }
}
