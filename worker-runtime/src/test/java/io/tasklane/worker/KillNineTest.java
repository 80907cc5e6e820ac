package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.Dispatches;
import io.tasklane.worker.support.WorkerFixture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@TasklaneStack
class KillNineTest {
  private static final String ATTEMPTS = "SELECT COUNT(*) FROM attempts WHERE task_id = ?";
  private static final String EFFECTS = "SELECT COUNT(*) FROM effects WHERE task_id = ?";

  @Test
  void killedWorkerMidTaskIsRedeliveredAndTheEffectHappensOnce(LocalStack stack) throws Exception {
    try (WorkerFixture fx = new WorkerFixture(stack, "kill", List.of("crashy"))) {
      fx.sql(
          "CREATE TABLE attempts (id BIGINT AUTO_INCREMENT PRIMARY KEY, task_id CHAR(36),"
              + " phase INT)");
      fx.sql("CREATE TABLE effects (id BIGINT AUTO_INCREMENT PRIMARY KEY, task_id CHAR(36))");
      Dispatch beforeCommit = Dispatches.of("crashy", Map.of("mode", "before-commit"), 120_000);
      Dispatch afterCommit = Dispatches.of("crashy", Map.of("mode", "after-commit"), 120_000);

      try (JavaProcess first = worker(fx, 1)) {
        fx.send(beforeCommit);
        fx.send(afterCommit);
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    fx.count(ATTEMPTS, beforeCommit.id()) == 1
                        && fx.count(EFFECTS, afterCommit.id()) == 1);
        assertThat(fx.count(EFFECTS, beforeCommit.id())).isZero(); // still uncommitted
        first.kill9();
        assertThat(first.isAlive()).isFalse();
      }
      assertThat(fx.results(beforeCommit.id())).isEmpty();
      assertThat(fx.results(afterCommit.id())).isEmpty();

      try (JavaProcess second = worker(fx, 2)) {
        assertThat(fx.awaitResult(beforeCommit.id(), Duration.ofSeconds(60)).outcome())
            .isEqualTo(Outcome.SUCCEEDED);
        assertThat(fx.awaitResult(afterCommit.id(), Duration.ofSeconds(60)).outcome())
            .isEqualTo(Outcome.SUCCEEDED);
      }
      assertThat(fx.count(EFFECTS, beforeCommit.id())).isEqualTo(1);
      assertThat(fx.count(EFFECTS, afterCommit.id())).isEqualTo(1);
      assertThat(fx.count(ATTEMPTS, beforeCommit.id())).isEqualTo(2); // ran again, effect once
      assertThat(fx.count(ATTEMPTS, afterCommit.id())).isEqualTo(1); // already processed: skipped
    }
  }

  private static JavaProcess worker(WorkerFixture fx, int phase) {
    JavaProcess.Builder b =
        JavaProcess.builder(KillWorkerMain.class.getName()).name("worker-" + phase);
    fx.properties(Map.of("test.phase", phase)).forEach((k, v) -> b.sysProp(k, String.valueOf(v)));
    return b.start();
  }
}
