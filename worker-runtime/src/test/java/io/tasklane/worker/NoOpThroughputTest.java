package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.annotation.Requires;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.Dispatches;
import io.tasklane.worker.support.WorkerFixture;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Prints no-op throughput and per-task overhead (measured, not asserted: see bin/bench). */
@TasklaneStack
class NoOpThroughputTest {
  private static final int TASKS = 5_000;

  @Singleton
  @Requires(property = "test.suite", value = "bench")
  static class NoOp {
    @TaskHandler("noop")
    public void run(String payload) {}
  }

  @ParameterizedTest(name = "idempotency store {0}")
  @ValueSource(booleans = {true, false})
  void measuresNoOpThroughputAndPerTaskOverhead(boolean store, LocalStack stack) throws Exception {
    try (WorkerFixture fx = new WorkerFixture(stack, "bench", List.of("noop"))) {
      fx.start(
          Map.of(
              "tasklane.worker.idempotency.enabled",
              store,
              "tasklane.worker.method-calls.enabled",
              false,
              "tasklane.worker.handlers.noop.concurrency",
              4,
              "tasklane.worker.handlers.noop.max-in-flight",
              64));
      warmUp(fx);
      int before = fx.resultCount();
      List<Dispatch> batch = new ArrayList<>();
      for (int i = 0; i < TASKS; i++) {
        batch.add(Dispatches.of("noop", "x", 30_000));
      }
      long t0 = System.nanoTime();
      batch.forEach(fx::sendAsync);
      fx.flush();
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> fx.resultCount() - before >= TASKS);
      double secs = (System.nanoTime() - t0) / 1e9;

      int n = 40;
      long[] roundTrip = new long[n];
      long[] pickup = new long[n];
      long[] inWorker = new long[n];
      for (int i = 0; i < n; i++) {
        Dispatch d = Dispatches.of("noop", "y", 30_000);
        long s = System.nanoTime();
        fx.send(d);
        TaskResult r = fx.awaitResult(d.id());
        roundTrip[i] = (System.nanoTime() - s) / 1_000_000;
        pickup[i] = r.startedAt() - d.dispatchedAt();
        inWorker[i] = r.finishedAt() - r.startedAt();
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
      }
      System.out.printf(
          "BENCH worker no-op (idempotency store %s, concurrency 4, max-in-flight 64): %d tasks in"
              + " %.2f s = %.0f tasks/s (%.3f ms/task); sequential: dispatch->handler start p50 %d"
              + " ms, handler start->result p50 %d ms, produce->result seen p50 %d ms%n",
          store ? "on" : "off",
          TASKS,
          secs,
          TASKS / secs,
          secs * 1000 / TASKS,
          p50(pickup),
          p50(inWorker),
          p50(roundTrip));
      assertThat(fx.resultCount() - before).isGreaterThanOrEqualTo(TASKS);
    }
  }

  private static void warmUp(WorkerFixture fx) {
    Dispatch d = Dispatches.of("noop", "warm", 30_000);
    fx.send(d);
    fx.awaitResult(d.id(), Duration.ofSeconds(60));
  }

  private static long p50(long[] values) {
    long[] copy = values.clone();
    Arrays.sort(copy);
    return copy[copy.length / 2];
  }
}
