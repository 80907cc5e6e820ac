package io.tasklane.bench.internal;

import io.tasklane.harness.FreePorts;
import java.time.Duration;

/**
 * The relay alone against the insert ceiling: the scheduler and the worker are stopped, so the
 * relay shares the cores only with the database, the broker and this driver's tap (which counts the
 * records on {@code <ns>.tasks}). {@code n} tasks in single outbox rows, then {@code n} in rows of
 * {@link Scenarios#BATCH_ROWS} tasks ({@code batch-rows}), both in transactions of 100 tasks, each
 * timed from the first commit to the last record on {@code <ns>.tasks}. Then a new scheduler and
 * worker start and run the 2n tasks, so that the next scenario starts idle. Keys: {@code
 * relay_rows_per_s}, {@code relay_batched_tasks_per_s} and their ratios to {@code
 * insert_ceiling_rows_per_s}. Runs on the bench's main thread.
 */
final class RelayAlone {
  private final BenchRun run;
  private final BenchOptions o;

  RelayAlone(BenchRun run) {
    this.run = run;
    this.o = run.options;
  }

  /** Measures both rates against {@code ceiling} (rows/s), then drains the tasks. */
  void run(int n, double ceiling) throws Exception {
    run.step("relay alone: scheduler and worker stopped, " + n + " tasks twice");
    run.worker.stop(Duration.ofSeconds(30));
    run.scheduler.stop(Duration.ofSeconds(30));
    long base = run.tap.succeeded();
    double single = timed(n, 1, "relay alone, one task per outbox row");
    double batched =
        timed(n, Scenarios.BATCH_ROWS, "relay alone, " + Scenarios.BATCH_ROWS + " tasks per row");
    Results r = run.results;
    r.put(o.key("relay_rows_per_s"), single);
    r.put(o.key("relay_batched_tasks_per_s"), batched);
    r.put(o.key("relay_vs_insert_ceiling"), single / ceiling);
    r.put(o.key("relay_batched_vs_insert_ceiling"), batched / ceiling);
    run.out.printf(
        "  relay alone: %.0f rows/s single (%.2f of the insert ceiling), %.0f tasks/s in rows of"
            + " %d (%.2f)%n",
        single, single / ceiling, batched, Scenarios.BATCH_ROWS, batched / ceiling);
    restart();
    boolean drained =
        run.progress(
            "running the relayed tasks",
            () -> String.format("succeeded %d of %d", run.tap.succeeded() - base, 2L * n),
            () -> run.tap.succeeded() - base >= 2L * n,
            Duration.ofSeconds(Math.max(300, n / 100)));
    if (!drained) {
      throw new IllegalStateException(
          "the relayed tasks did not all succeed after the restart; see " + run.apps.logs());
    }
  }

  /** {@code n} tasks, {@code perRow} to an outbox row: first commit → last record, tasks/s. */
  private double timed(int n, int perRow, String label) throws Exception {
    long seenBase = run.tap.tasksSeen();
    Enqueuer e =
        perRow == 1
            ? new Enqueuer(run.url, run.db.user(), run.db.password())
            : new Enqueuer(run.url, run.db.user(), run.db.password(), perRow);
    long start = System.currentTimeMillis();
    Thread load = Scenarios.background(() -> e.run(n, 100, 4, null, false));
    run.progress(
        label,
        () ->
            String.format("committed %d, relayed %d", e.enqueued(), run.tap.tasksSeen() - seenBase),
        () -> run.tap.tasksSeen() - seenBase >= n,
        Duration.ofSeconds(Math.max(120, n / 200)));
    load.join();
    return (run.tap.tasksSeen() - seenBase) * 1000.0 / Math.max(1, run.tap.lastTaskTs() - start);
  }

  /** A new scheduler (its stores restored from the changelogs) and worker. */
  private void restart() throws InterruptedException {
    int port = FreePorts.next();
    run.scheduler = run.track(Recipes.scheduler(run.apps, "scheduler-after-relay", port).start());
    run.schedulerPort = port;
    run.worker = run.track(Recipes.worker(run.apps, "worker-after-relay").start());
  }
}
