package io.tasklane.bench.internal;

import io.tasklane.bench.EffectHandler;
import io.tasklane.core.Topics;
import io.tasklane.harness.DatabaseKind;
import io.tasklane.testkit.JavaProcess;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * The throughput scenario again with the handler most users deploy: its effect written through the
 * JDBC idempotency store in the handler's transaction ({@link EffectHandler}, one row per task in
 * the run's database), on a worker of its own ({@link Recipes#effectWorker}) while the no-op worker
 * idles. Warms that worker up with half as many tasks first (not timed), then times {@code n} tasks
 * end to end and takes the CPU per task of every process, as the no-op measure does. Checks that
 * every task left exactly one effect row. Runs on the caller's thread.
 */
final class IdempotentThroughput {
  private final BenchRun run;
  private final BenchOptions o;
  private final Results r;
  private final String topic;

  IdempotentThroughput(BenchRun run, Topics topics) {
    this.run = run;
    this.o = run.options;
    this.r = run.results;
    this.topic = topics.handler(EffectHandler.NAME);
  }

  void run(int n) throws Exception {
    run.step(
        "exactly-once handler: "
            + n
            + " tasks whose effect is written in the idempotency"
            + " transaction");
    effectTable();
    JavaProcess worker = Recipes.effectWorker(run.apps, "worker-effect").start();
    try {
      awaitTopic(worker);
      int warm = Math.max(1, n / 2);
      if (!timed(warm, "exactly-once handler warm-up (not timed)", worker).done()) {
        r.put(o.key("throughput_idempotent_tasks"), 0);
        run.out.println(
            "  exactly-once handler: the warm-up did not finish; see " + run.apps.logs());
        return;
      }
      Map<String, Long> pids = new LinkedHashMap<>(run.cpuPids());
      pids.put("worker", worker.pid());
      Map<String, Long> before = CpuTimes.sample(pids);
      Measure m = timed(n, "exactly-once handler, end to end", worker);
      Map<String, Double> perTask = CpuTimes.perTask(before, CpuTimes.sample(pids), m.succeeded());
      perTask.forEach((c, us) -> r.put(o.key("cpu_us_per_task_idempotent_" + c), us));
      Map<String, Double> parts = new LinkedHashMap<>(perTask);
      parts.remove("total");
      r.cpuPerTask.put(system() + ", exactly-once handler", parts);
      long effects = effectRows();
      r.put(o.key("throughput_idempotent_tasks"), n);
      r.put(o.key("throughput_idempotent_tasks_per_s"), m.perSecond());
      r.put(o.key("throughput_idempotent_effects_missing"), warm + n - effects);
      run.out.printf(
          "  exactly-once handler: %.0f tasks/s end to end; CPU per task %s µs; effect rows %d of"
              + " %d%n",
          m.perSecond(), perTask, effects, warm + n);
    } finally {
      worker.stop(Duration.ofSeconds(10));
    }
  }

  private record Measure(boolean done, long succeeded, double perSecond) {}

  private Measure timed(int n, String label, JavaProcess worker) throws Exception {
    long base = run.tap.succeeded();
    Enqueuer e = new Enqueuer(run.url, run.db.user(), run.db.password(), EffectHandler.NAME);
    long start = System.currentTimeMillis();
    Thread load = Scenarios.background(() -> e.run(n, 100, 4, null, false));
    boolean done =
        run.progress(
            label,
            () ->
                String.format(
                    "committed %d, succeeded %d of %d%s",
                    e.enqueued(),
                    run.tap.succeeded() - base,
                    n,
                    worker.isAlive() ? "" : " (the worker exited)"),
            () -> run.tap.succeeded() - base >= n || !worker.isAlive(),
            Duration.ofSeconds(Math.max(120, n / 100)));
    load.join();
    long succeeded = run.tap.succeeded() - base;
    long end = succeeded >= n ? run.tap.lastResultTs() : System.currentTimeMillis();
    return new Measure(
        done && succeeded >= n, succeeded, succeeded * 1000.0 / Math.max(1, end - start));
  }

  /**
   * Waits until the worker has created the handler's topic, so that no task of the measure finds
   * its handler missing (the scheduler would hold it as NO_HANDLER until the topic appears).
   */
  private void awaitTopic(JavaProcess worker) throws Exception {
    try (Admin admin = Admin.create(run.stack.kafkaAdminProperties())) {
      run.progress(
          "starting the exactly-once worker",
          () -> "waiting for " + topic,
          () -> {
            if (!worker.isAlive()) {
              throw new IllegalStateException("worker-effect exited:\n" + worker.logTail(30));
            }
            try {
              return admin.listTopics().names().get(10, TimeUnit.SECONDS).contains(topic);
            } catch (Exception e) {
              return false;
            }
          },
          Duration.ofMinutes(2));
    }
  }

  private String system() {
    return o.db() == DatabaseKind.POSTGRESQL ? "Tasklane on PostgreSQL" : "Tasklane";
  }

  private void effectTable() throws Exception {
    try (Connection c = run.db.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS "
              + EffectHandler.TABLE
              + " (task_id VARCHAR(128) PRIMARY KEY, done_at BIGINT NOT NULL)");
      s.execute("DELETE FROM " + EffectHandler.TABLE);
    }
  }

  private long effectRows() throws Exception {
    try (Connection c = run.db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + EffectHandler.TABLE)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
