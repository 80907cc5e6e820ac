package io.tasklane.bench.internal;

import io.tasklane.harness.FreePorts;
import io.tasklane.testkit.JavaProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Two scheduler instances (num-standby-replicas=1, session timeout 2.5 s), the second's standbys
 * caught up with the stores, an offered load, kill -9 of the first instance at a third of it.
 * Failover time: the longest commit → handler start of the tasks committed in the 2 s after the
 * kill, i.e. how long dispatch of their partitions stopped. Then scheduler-2 is the run's
 * scheduler, and {@link WorkerFailover} measures the same for a killed worker.
 */
final class Failover {
  /** Records behind at which a standby counts as caught up. */
  private static final long CAUGHT_UP = 1_000;

  private final BenchRun run;
  private final Enqueuer enqueuer;

  Failover(BenchRun run, Enqueuer enqueuer) {
    this.run = run;
    this.enqueuer = enqueuer;
  }

  void run() throws Exception {
    int port2 = FreePorts.next();
    JavaProcess second = run.track(Recipes.scheduler(run.apps, "scheduler-2", port2).start());
    HttpClient http = HttpClient.newHttpClient();
    run.progress(
        "starting scheduler-2 (standby replicas 1)",
        () -> "waiting for /health UP",
        () -> healthy(http, port2, second),
        Duration.ofSeconds(120));
    // A short warm-up load: the group has rebalanced and the standby has restored once it passes.
    enqueuer.clear();
    enqueuer.paced(50, 5, 1, null);
    Map<String, Long> warm = Map.copyOf(enqueuer.commits());
    run.progress(
        "warm-up through both instances",
        () -> started(warm) + "/" + warm.size(),
        () -> started(warm) >= warm.size(),
        Duration.ofSeconds(90));
    TimeUnit.SECONDS.sleep(3);
    awaitStandby(port2);

    int rate = run.options.failoverRate();
    int secs = run.options.failoverSeconds();
    enqueuer.clear();
    long killAt = loadAndKill(run, enqueuer, rate, secs, 2, "scheduler-1", () -> run.scheduler);
    Map<String, Long> commits = Map.copyOf(enqueuer.commits());
    run.progress(
        "waiting for every task",
        () -> started(commits) + "/" + commits.size() + " started",
        () -> started(commits) >= commits.size(),
        Duration.ofSeconds(120));
    long worst = 0;
    long late = 0;
    for (Map.Entry<String, Long> e : commits.entrySet()) {
      Long s = run.tap.startOf(e.getKey());
      if (e.getValue() >= killAt && e.getValue() <= killAt + 2000) {
        long wait = s == null ? System.currentTimeMillis() - e.getValue() : s - e.getValue();
        worst = Math.max(worst, wait);
        late += wait > 1000 ? 1 : 0;
      }
    }
    run.results.put("failover_s", worst / 1000.0);
    run.results.put("failover_tasks_delayed_over_1s", late);
    run.results.put("failover_unfinished", commits.size() - started(commits));
    run.out.printf(
        "  dispatch resumed %.1f s after kill -9 (worst commit → start of tasks committed in the 2 s after the kill)%n",
        worst / 1000.0);
    run.scheduler = second;
    run.schedulerPort = port2;
    new WorkerFailover(run).run();
  }

  /**
   * Waits until scheduler-2's standbys have read their changelogs (what the earlier scenarios left
   * in the stores) to within {@link #CAUGHT_UP} records, so that the kill measures the failover of
   * a warm pair and not a standby still restoring; records how long that took.
   */
  private void awaitStandby(int port) throws InterruptedException {
    long t0 = System.currentTimeMillis();
    long[] seen = {-1, -1};
    boolean warm =
        run.progress(
            "scheduler-2's standby replicas catching up",
            () -> seen[0] + " changelog partitions, " + seen[1] + " records behind",
            () -> {
              long[] now = Probes.standby(port);
              seen[0] = now[0];
              seen[1] = now[1];
              return seen[0] > 0 && seen[1] >= 0 && seen[1] <= CAUGHT_UP;
            },
            Duration.ofMinutes(10));
    run.results.put("failover_standby_catchup_s", (System.currentTimeMillis() - t0) / 1000.0);
    run.results.put("failover_standby_warm", warm);
  }

  private long started(Map<String, Long> ids) {
    return ids.keySet().stream().filter(id -> run.tap.startOf(id) != null).count();
  }

  /** Whether the scheduler {@code p} on {@code port} answers {@code /health} UP; throws if dead. */
  static boolean healthy(HttpClient http, int port, JavaProcess p) {
    if (!p.isAlive()) {
      throw new IllegalStateException(p.name() + " died:\n" + p.logTail(30));
    }
    try {
      return http.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                      .timeout(Duration.ofSeconds(2))
                      .build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (Exception e) {
      return false;
    }
  }

  /**
   * Offers {@code rate} tasks/s of {@code enqueuer}'s handler for {@code secs} s on {@code threads}
   * connections and kill -9s {@code victim} (named {@code name}) at a third of it, showing
   * progress; returns when the load is offered, with the kill's wall-clock time. On the bench
   * thread.
   */
  static long loadAndKill(
      BenchRun run,
      Enqueuer enqueuer,
      int rate,
      int secs,
      int threads,
      String name,
      Supplier<JavaProcess> victim)
      throws InterruptedException {
    AtomicLong killAt = new AtomicLong();
    Thread load = Scenarios.background(() -> enqueuer.paced(rate, secs, threads, null));
    long killTime = System.currentTimeMillis() + secs * 1000L / 3;
    run.progress(
        String.format("%d tasks/s for %d s, kill -9 %s at %d s", rate, secs, name, secs / 3),
        () ->
            enqueuer.enqueued() + " committed" + (killAt.get() > 0 ? ", " + name + " killed" : ""),
        () -> {
          if (killAt.get() == 0 && System.currentTimeMillis() >= killTime) {
            victim.get().kill9();
            killAt.set(System.currentTimeMillis());
          }
          return !load.isAlive();
        },
        Duration.ofSeconds(secs * 3L + 30));
    return killAt.get();
  }
}
