package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskOptions;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.Dispatches;
import io.tasklane.worker.support.WorkerFixture;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * On a real broker, a worker whose only pool thread is busy holds the dispatches it fetched and
 * starts them highest priority first (the scheduler's {@code tasklane.priority} record header),
 * dispatches of one priority in the order they came, and a low-priority dispatch held longer than
 * the pool's aging bound before an urgent one before it (docs/priorities.md, <i>In the worker</i>).
 */
@TasklaneStack
class PoolPriorityTest {
  private static WorkerFixture fx;
  private static Started started;
  private static MeterRegistry registry;

  @Singleton
  @Requires(property = "test.suite", value = "pool-priority")
  static class Started {
    final List<String> order = new CopyOnWriteArrayList<>();
    final CountDownLatch release = new CountDownLatch(1);
  }

  @Singleton
  @Requires(property = "test.suite", value = "pool-priority")
  static class Handlers {
    private final Started started;

    Handlers(Started started) {
      this.started = started;
    }

    @TaskHandler("ranked")
    public void ranked(String name) throws InterruptedException {
      started.order.add(name);
      if (name.equals("blocker")) {
        started.release.await(60, TimeUnit.SECONDS);
      }
    }
  }

  @Factory
  @Requires(property = "test.suite", value = "pool-priority")
  static class Metrics {
    @Singleton
    MeterRegistry registry() {
      return new SimpleMeterRegistry();
    }
  }

  @BeforeAll
  static void start(LocalStack stack) {
    fx = new WorkerFixture(stack, "pool-priority", List.of("ranked"));
    ApplicationContext ctx =
        fx.start(
            java.util.Map.of(
                "tasklane.worker.idempotency.enabled",
                false,
                "tasklane.worker.handlers.ranked.concurrency",
                1,
                "tasklane.worker.handlers.ranked.max-in-flight",
                50));
    started = ctx.getBean(Started.class);
    registry = ctx.getBean(MeterRegistry.class);
  }

  @AfterAll
  static void stop() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  private static Dispatch dispatch(String name, Integer priority) {
    Dispatch d = Dispatches.of("ranked", name, 60_000);
    if (priority == null) {
      return d;
    }
    return Dispatch.of(
        d.task().toBuilder().options(TaskOptions.builder().priority(priority).build()).build(),
        1,
        d.deadline(),
        d.dispatchedAt());
  }

  private static double inFlight() {
    Gauge g = registry.find("tasklane.worker.in.flight").tag("handler", "ranked").gauge();
    return g == null ? 0 : g.value();
  }

  @Test
  void theHeldDispatchesStartHighestPriorityFirstAndAnOldLowOneIsNotPassed() {
    List<Dispatch> sent = new ArrayList<>();
    Dispatch blocker = dispatch("blocker", null);
    fx.sendAsScheduled(blocker);
    sent.add(blocker);
    await().atMost(Duration.ofSeconds(60)).until(() -> started.order.contains("blocker"));

    // held behind the blocker: a priority-0 dispatch, then (after the pool's aging bound) three of
    // the default priority and two urgent ones
    Dispatch old = dispatch("old-low", 0);
    fx.sendAsScheduled(old);
    sent.add(old);
    await().atMost(Duration.ofSeconds(30)).until(() -> inFlight() >= 2);
    long heldAt = System.currentTimeMillis();
    await()
        .pollDelay(Duration.ofMillis(1_200))
        .until(() -> System.currentTimeMillis() - heldAt > 1_100); // older than the aging bound
    for (String name : List.of("default-1", "default-2", "default-3")) {
      Dispatch d = dispatch(name, null);
      fx.sendAsScheduled(d);
      sent.add(d);
    }
    Dispatch urgent1 = dispatch("urgent-1", 9);
    Dispatch low = dispatch("new-low", 0);
    Dispatch urgent2 = dispatch("urgent-2", 9);
    for (Dispatch d : List.of(urgent1, low, urgent2)) {
      fx.sendAsScheduled(d);
      sent.add(d);
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> inFlight() >= sent.size());
    started.release.countDown();

    for (Dispatch d : sent) {
      assertThat(fx.awaitResult(d.id(), Duration.ofSeconds(60)).outcome())
          .isEqualTo(Outcome.SUCCEEDED);
    }
    assertThat(started.order)
        .containsExactly(
            "blocker",
            "old-low", // held 1 s longer than the urgent ones: the bound lets nothing pass it
            "urgent-1",
            "urgent-2",
            "default-1",
            "default-2",
            "default-3",
            "new-low");
  }
}
