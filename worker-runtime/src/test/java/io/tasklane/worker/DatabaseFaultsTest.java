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
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Bad-input catalogue rows 14 and 15 on the worker: the JDBC idempotency store's database is down
 * at start, or the worker's database user has an expired password (MariaDB then answers "You must
 * SET PASSWORD before executing this statement"). The worker starts anyway; each attempt fails
 * before its handler runs and is answered FAILED with the database's error, so the scheduler
 * retries it with backoff; nothing is acknowledged as succeeded, and once the database answers a
 * retry runs the task exactly once.
 */
@TasklaneStack
class DatabaseFaultsTest {
  private static final List<String> HANDLERS = List.of("db", "plain");

  /** What the handlers ran: task id → runs. */
  @Singleton
  @Requires(property = "test.suite", value = "dbfaults")
  static class Runs {
    final Map<String, Integer> byTask = new ConcurrentHashMap<>();
  }

  @Singleton
  @Requires(property = "test.suite", value = "dbfaults")
  static class Handlers {
    private final Runs runs;

    Handlers(Runs runs) {
      this.runs = runs;
    }

    @TaskHandler("db")
    public void db(String payload, TaskContext ctx) throws Exception {
      runs.byTask.merge(ctx.taskId(), 1, Integer::sum);
      ctx.inTransaction(
          c -> {
            try (var ps = c.prepareStatement("INSERT INTO effects (task_id, note) VALUES (?, ?)")) {
              ps.setString(1, ctx.taskId());
              ps.setString(2, payload);
              return ps.executeUpdate();
            }
          });
    }

    @TaskHandler("plain")
    public void plain(String payload, TaskContext ctx) {
      runs.byTask.merge(ctx.taskId(), 1, Integer::sum);
    }
  }

  @Test
  void databaseDownAtStartTheWorkerStartsAndAnswersEveryAttemptFailedWithoutRunningIt(
      LocalStack stack) throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort(); // closed again: nothing listens there
    }
    try (WorkerFixture fx = new WorkerFixture(stack, "dbfaults", HANDLERS)) {
      Runs runs =
          fx.start(
                  Map.of(
                      "test.jdbc.url",
                      "jdbc:mariadb://127.0.0.1:" + deadPort + "/" + fx.database,
                      "test.jdbc.options",
                      "&connectTimeout=2000"))
              .getBean(Runs.class);

      List<Dispatch> sent = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        sent.add(Dispatches.of("db", "d" + i, 30_000));
        sent.add(Dispatches.of("plain", "p" + i, 30_000));
      }
      sent.forEach(fx::send);

      for (Dispatch d : sent) {
        TaskResult r = fx.awaitResult(d.id());
        assertThat(r.outcome()).as(d.task().handler()).isEqualTo(Outcome.FAILED);
        assertThat(r.error().type()).isEqualTo(WorkerException.class.getName());
        assertThat(r.error().message())
            .contains("tasklane_processed")
            .containsIgnoringCase("connect");
        assertThat(fx.results(d.id())).hasSize(1);
      }
      assertThat(runs.byTask).isEmpty();
    }
  }

  @Test
  void expiredCredentialsFailTheAttemptNamingTheErrorAndARetryAfterRenewalRunsOnce(LocalStack stack)
      throws Exception {
    String user = "worker_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    try (WorkerFixture fx = new WorkerFixture(stack, "dbfaults", HANDLERS)) {
      fx.sql(
          "CREATE TABLE effects (id BIGINT AUTO_INCREMENT PRIMARY KEY, task_id CHAR(36), note"
              + " VARCHAR(100))");
      root(
          stack,
          "CREATE USER '" + user + "'@'%' IDENTIFIED BY 'pw1'",
          "GRANT ALL ON " + fx.database + ".* TO '" + user + "'@'%'",
          "ALTER USER '" + user + "'@'%' PASSWORD EXPIRE");
      Runs runs =
          fx.start(
                  Map.of(
                      "test.jdbc.user",
                      user,
                      "test.jdbc.password",
                      "pw1",
                      "test.jdbc.pool",
                      "hikari"))
              .getBean(Runs.class);

      Dispatch first = Dispatches.of("db", "once", 30_000);
      fx.send(first);
      TaskResult failed = fx.awaitResult(first.id());
      assertThat(failed.outcome()).isEqualTo(Outcome.FAILED);
      assertThat(failed.error().message()).contains("You must SET PASSWORD");
      assertThat(runs.byTask).doesNotContainKey(first.id());

      root(stack, "ALTER USER '" + user + "'@'%' IDENTIFIED BY 'pw1'");

      // as the scheduler does: retry until an attempt succeeds (the pool may need a moment)
      Dispatch retry = first;
      TaskResult last = failed;
      while (last.outcome() != Outcome.SUCCEEDED && retry.attempt() < 20) {
        retry = Dispatches.retry(first, retry.attempt() + 1);
        fx.send(retry);
        last = awaitAttempt(fx, first.id(), retry.attempt());
        assertThat(last.outcome()).isIn(Outcome.FAILED, Outcome.SUCCEEDED);
      }
      assertThat(last.outcome()).isEqualTo(Outcome.SUCCEEDED);
      int succeeded = retry.attempt();
      fx.send(retry); // redelivered after it succeeded: answered without running again
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> fx.results(first.id()).size() == succeeded + 1);
      assertThat(fx.results(first.id()))
          .filteredOn(r -> r.outcome() == Outcome.SUCCEEDED)
          .extracting(TaskResult::attempt)
          .containsExactly(succeeded, succeeded);
      assertThat(runs.byTask).containsEntry(first.id(), 1);
      assertThat(fx.count("SELECT COUNT(*) FROM effects WHERE task_id = ?", first.id()))
          .isEqualTo(1);
      assertThat(fx.count("SELECT COUNT(*) FROM tasklane_processed WHERE task_id = ?", first.id()))
          .isEqualTo(1);
    } finally {
      root(stack, "DROP USER IF EXISTS '" + user + "'@'%'");
    }
  }

  private static TaskResult awaitAttempt(WorkerFixture fx, String id, int attempt) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> fx.results(id).stream().anyMatch(r -> r.attempt() == attempt));
    return fx.results(id).stream().filter(r -> r.attempt() == attempt).findFirst().orElseThrow();
  }

  private static void root(LocalStack stack, String... sql) throws Exception {
    try (Connection c = DriverManager.getConnection(stack.rootJdbcUrl());
        Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }
}
