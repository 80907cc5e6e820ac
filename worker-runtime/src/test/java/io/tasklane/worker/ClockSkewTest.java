package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.Dispatches;
import io.tasklane.worker.support.WorkerFixture;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A worker whose clock runs 10 minutes ahead of the scheduler's, with dispatches whose scheduler
 * deadline leaves 1 minute of grace: the worker judges the time budget from its own receipt, so the
 * attempts still run and their timeout still applies.
 */
@TasklaneStack
class ClockSkewTest {
  private static final Duration SKEW = Duration.ofMinutes(10);
  private static final long GRACE_MS = 60_000;
  private static WorkerFixture fx;
  private static Ran ran;

  @Singleton
  @Requires(property = "test.suite", value = "skew")
  static class Ran {
    final Set<String> ids = ConcurrentHashMap.newKeySet();
  }

  @Factory
  @Requires(property = "test.suite", value = "skew")
  static class SkewedClock {
    @Singleton
    Clock clock() {
      return Clock.offset(Clock.systemUTC(), SKEW);
    }
  }

  @Singleton
  @Requires(property = "test.suite", value = "skew")
  static class Handlers {
    private final Ran ran;

    Handlers(Ran ran) {
      this.ran = ran;
    }

    @TaskHandler("skewed")
    public void skewed(String mode, TaskContext ctx) throws InterruptedException {
      ran.ids.add(ctx.taskId());
      if (mode.equals("hang")) {
        new CountDownLatch(1).await();
      }
    }
  }

  @BeforeAll
  static void start(LocalStack stack) {
    fx = new WorkerFixture(stack, "skew", List.of("skewed"));
    ran = fx.start(Map.of("tasklane.worker.idempotency.enabled", false)).getBean(Ran.class);
  }

  @AfterAll
  static void stop() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  /** As the scheduler dispatches it now (its clock): deadline = now + timeout + grace. */
  private static Dispatch dispatch(String mode, long timeoutMs, long deadlineFromNowMs) {
    Dispatch d = Dispatches.of("skewed", mode, timeoutMs);
    long now = System.currentTimeMillis();
    return new Dispatch(d.v(), d.task(), 1, now + deadlineFromNowMs, d.routingKey(), now);
  }

  @Test
  void aWorkerClockTenMinutesAheadStillRunsTheDispatch() {
    Dispatch d = dispatch("ok", 30_000, 30_000 + GRACE_MS);
    fx.send(d);

    TaskResult r = fx.awaitResult(d.id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(ran.ids).contains(d.id());
    // the worker's clock is the skewed one: its start lies past the scheduler's deadline
    assertThat(r.startedAt()).isGreaterThan(d.deadline());
  }

  @Test
  void theTimeoutStillAppliesUnderSkew() {
    Dispatch d = dispatch("hang", 1_000, 1_000 + GRACE_MS);
    fx.send(d);

    TaskResult r = fx.awaitResult(d.id(), Duration.ofSeconds(20));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.error().type()).isEqualTo("timeout");
    assertThat(r.finishedAt() - r.startedAt()).isBetween(1_000L, 5_000L);
    assertThat(ran.ids).contains(d.id());
  }

  @Test
  void aDispatchStalerThanAnyToleratedSkewIsNotRun() {
    Dispatch d = dispatch("ok", 1_000, -Duration.ofHours(2).toMillis());
    fx.send(d);

    TaskResult r = fx.awaitResult(d.id());
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.error().type()).isEqualTo("expired");
    assertThat(r.error().message()).contains("more than 60 min ago");
    assertThat(ran.ids).doesNotContain(d.id());
  }
}
