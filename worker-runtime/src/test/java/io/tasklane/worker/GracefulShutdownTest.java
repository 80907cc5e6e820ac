package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.Dispatches;
import io.tasklane.worker.support.WorkerFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@TasklaneStack
class GracefulShutdownTest {

  @Test
  void gracefulShutdownFinishesInFlightWorkAndLosesNothing(LocalStack stack) throws Exception {
    try (WorkerFixture fx = new WorkerFixture(stack, "shutdown", List.of("steady"))) {
      fx.sql("CREATE TABLE runs (id BIGINT AUTO_INCREMENT PRIMARY KEY, task_id CHAR(36))");
      Map<String, Object> props =
          Map.of(
              "tasklane.worker.idempotency.enabled",
              false,
              "tasklane.worker.handlers.steady.concurrency",
              2,
              "tasklane.worker.handlers.steady.max-in-flight",
              4,
              "tasklane.worker.shutdown-grace",
              "20s");
      ApplicationContext first = fx.start(props);
      List<Dispatch> tasks = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        Dispatch d = Dispatches.of("steady", "n" + i, 30_000);
        tasks.add(d);
        fx.send(d);
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> fx.resultCount() >= 5);

      long t0 = System.nanoTime();
      fx.stop(first);
      long stopMs = (System.nanoTime() - t0) / 1_000_000;
      long ranBeforeStop = fx.count("SELECT COUNT(*) FROM runs", null);
      assertThat(fx.resultCount()).isEqualTo((int) ranBeforeStop);
      assertThat(ranBeforeStop).isLessThan(30);

      fx.start(props);
      for (Dispatch d : tasks) {
        TaskResult r = fx.awaitResult(d.id());
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
      }
      assertThat(fx.count("SELECT COUNT(*) FROM runs", null)).isEqualTo(30);
      assertThat(fx.count("SELECT COUNT(DISTINCT task_id) FROM runs", null)).isEqualTo(30);
      assertThat(fx.resultCount()).isEqualTo(30);
      System.out.printf(
          "graceful stop took %d ms with %d of 30 tasks done before it%n", stopMs, ranBeforeStop);
    }
  }
}
