package io.tasklane.bench.internal;

import io.tasklane.bench.SleepHandler;
import io.tasklane.testkit.JavaProcess;
import java.time.Duration;
import java.util.Map;

/**
 * Worker failover, the second half of the failover scenario: a second bench worker ({@code
 * worker-2}) joins; a paced load of {@value #RATE} tasks/s of the 1 s {@link SleepHandler} runs for
 * {@code failoverSeconds}, so that about ten tasks run on each worker at any time; at a third of it
 * the first worker gets {@code kill -9}.
 *
 * <p>{@code worker_failover_s}: the tasks committed before the kill that had not started on a live
 * worker by then, or had started on the killed one (their first SUCCEEDED result has a handler
 * start after the kill), are the tasks in flight on or assigned to the killed worker, plus those
 * still on their way to worker-2; the measure is the longest kill → handler start among them (a
 * task not started when the wait ends counts until then). With enough room on worker-2 the tasks on
 * their way start within the dispatch latency, so the worst is the redelivery of the killed
 * worker's tasks: detection of the dead consumer, the handler group's rebalance, the first poll.
 * Also recorded: {@code worker_failover_redelivered} (those tasks started ≥ 1 s after the kill,
 * i.e. redelivered) and {@code worker_failover_unfinished}. Then the killed worker's recipe starts
 * again: {@code startup_ready_s_worker_restart} ({@link StartupReady}).
 *
 * <p>Runs on the bench thread; the load runs on its own threads.
 */
final class WorkerFailover {
  static final int RATE = 20;
  private final BenchRun run;

  WorkerFailover(BenchRun run) {
    this.run = run;
  }

  void run() throws Exception {
    JavaProcess second = run.track(Recipes.worker(run.apps, "worker-2").start());
    Enqueuer enqueuer = new Enqueuer(run.url, run.db.user(), run.db.password(), SleepHandler.NAME);
    // Warm-up until both workers have run sleep tasks: the handler group has both members.
    run.progress(
        "starting worker-2, sleep tasks through both workers",
        () ->
            enqueuer.enqueued()
                + " enqueued, worker-2 "
                + (ranOn(enqueuer, "worker-2") ? "up" : "not yet"),
        () -> {
          if (!second.isAlive()) {
            throw new IllegalStateException("worker-2 died:\n" + second.logTail(30));
          }
          // the first worker's name: "worker", or "worker-after-relay" once throughput restarted it
          if (ranOn(enqueuer, "worker-2") && ranOn(enqueuer, run.worker.name())) {
            return true;
          }
          try {
            enqueuer.paced(RATE, 1, 1, null);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return false;
        },
        Duration.ofSeconds(180));

    int secs = run.options.failoverSeconds();
    enqueuer.clear();
    JavaProcess first = run.worker;
    long killAt = Failover.loadAndKill(run, enqueuer, RATE, secs, 1, "worker", () -> first);
    run.worker = second;
    Map<String, Long> commits = Map.copyOf(enqueuer.commits());
    run.progress(
        "waiting for every sleep task",
        () -> started(commits) + "/" + commits.size() + " started",
        () -> started(commits) >= commits.size(),
        Duration.ofSeconds(120));
    long end = System.currentTimeMillis();
    long worst = 0;
    long redelivered = 0;
    for (Map.Entry<String, Long> e : commits.entrySet()) {
      Long s = run.tap.startOf(e.getKey());
      if (e.getValue() <= killAt && (s == null || s > killAt)) {
        long gap = (s == null ? end : s) - killAt;
        worst = Math.max(worst, gap);
        redelivered += gap >= 1000 ? 1 : 0;
      }
    }
    run.results.put("worker_failover_s", worst / 1000.0);
    run.results.put("worker_failover_redelivered", redelivered);
    run.results.put("worker_failover_unfinished", commits.size() - started(commits));
    run.out.printf(
        "  worker-1's tasks started again %.1f s after kill -9 (worst kill → start, %d redelivered)%n",
        worst / 1000.0, redelivered);
    restartKilled();
  }

  /**
   * {@code startup_ready_s_worker_restart}: the killed worker's recipe started again beside
   * worker-2 (a new name, the same settings), exec → every handler consumer assigned; then stopped
   * cleanly, so the scenarios after this one keep one worker.
   */
  private void restartKilled() throws Exception {
    try (StartupReady ready = new StartupReady()) {
      long execAt = System.nanoTime();
      JavaProcess again = run.track(Recipes.worker(run.apps, "worker-restarted").start());
      ready.watch("worker_restart", again, execAt, StartupReady.worker());
      run.progress(
          "starting the killed worker again",
          () -> "waiting for its consumers",
          () -> {
            if (!again.isAlive()) {
              throw new IllegalStateException("worker-restarted died:\n" + again.logTail(30));
            }
            return ready.results().containsKey("startup_ready_s_worker_restart");
          },
          Duration.ofSeconds(60));
      ready.report(1, run.results, run.out);
      again.stop(Duration.ofSeconds(10));
    }
  }

  private boolean ranOn(Enqueuer enqueuer, String worker) {
    return enqueuer.commits().keySet().stream().anyMatch(id -> worker.equals(run.tap.workerOf(id)));
  }

  private long started(Map<String, Long> ids) {
    return ids.keySet().stream().filter(id -> run.tap.startOf(id) != null).count();
  }
}
