package io.tasklane.bench.internal;

import io.tasklane.harness.Database;
import io.tasklane.harness.DatabaseKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The peers' scenarios, in the run's JVM: db-scheduler's throughput and delay on the run's
 * database, JobRunr's throughput ({@link JobRunrPeer}) in a database of its own on the same
 * MariaDB.
 */
final class PeerScenarios {
  private final BenchRun run;
  private final Results r;

  PeerScenarios(BenchRun run) {
    this.run = run;
    this.r = run.results;
  }

  private Peer open() throws Exception {
    r.put("dbscheduler_settings", Peer.SETTINGS);
    return new Peer(run.url, run.stack.username(), run.stack.password());
  }

  void throughput() throws Exception {
    int n = run.options.tasks();
    try (Peer p = open()) {
      long start = System.currentTimeMillis();
      Thread t = Scenarios.background(() -> p.insert(n, 100, 4, i -> Instant.ofEpochMilli(start)));
      AtomicLong remaining = new AtomicLong(n);
      AtomicLong lastCheck = new AtomicLong();
      boolean done =
          run.progress(
              "db-scheduler",
              () ->
                  String.format(
                      "started %d of %d, rows left %d", p.starts().size(), n, remaining.get()),
              () -> {
                if (t.isAlive() || p.starts().size() < n) {
                  return false;
                }
                if (System.currentTimeMillis() - lastCheck.get() >= 100) {
                  lastCheck.set(System.currentTimeMillis());
                  remaining.set(uncheck(() -> p.remaining(Long.MAX_VALUE / 4)));
                }
                return remaining.get() == 0;
              },
              Duration.ofSeconds(Math.max(120, n / 100)));
      long end = System.currentTimeMillis();
      r.put("dbscheduler_tasks_per_s", p.starts().size() * 1000.0 / Math.max(1, end - start));
      r.put("dbscheduler_completed", done);
      List<long[]> series = new ArrayList<>();
      for (long s = start / 1000; s <= end / 1000; s++) {
        var a = p.perSecond().get(s);
        series.add(new long[] {s * 1000 - start, a == null ? 0 : a.sum()});
      }
      r.throughput.put("db-scheduler", series);
      Object tl = r.get("throughput_tasks_per_s");
      if (tl instanceof Double d && p.starts().size() > 0) {
        r.put(
            "tasklane_vs_dbscheduler",
            d / Math.max(1e-9, (Double) r.get("dbscheduler_tasks_per_s")));
      }
      run.out.printf(
          "  db-scheduler %.0f tasks/s (first commit → last execution row deleted)%n",
          r.get("dbscheduler_tasks_per_s"));
      p.clear();
    }
    jobRunr();
  }

  /**
   * JobRunr: the same N no-op jobs at each worker count of {@link JobRunrPeer#WORKERS}, timed like
   * db-scheduler (first enqueue → every job started and no job left unfinished in its table); the
   * best count is reported.
   */
  void jobRunr() throws Exception {
    int n = run.options.tasks();
    String name = run.url.substring(run.url.lastIndexOf('/') + 1).replaceAll("\\?.*", "");
    Database db = Database.create(run.stack, DatabaseKind.MARIADB, name + "_jobrunr", c -> {});
    r.put("jobrunr_version", JobRunrPeer.VERSION);
    double best = -1;
    int bestWorkers = 0;
    List<long[]> bestSeries = null;
    StringBuilder sweep = new StringBuilder();
    for (int workers : JobRunrPeer.WORKERS) {
      try (JobRunrPeer p = new JobRunrPeer(db.url(), db.user(), db.password(), workers)) {
        long start = System.currentTimeMillis();
        Thread t = Scenarios.background(() -> p.enqueue(n));
        AtomicLong unfinished = new AtomicLong(n);
        AtomicLong lastCheck = new AtomicLong();
        boolean done =
            run.progress(
                "JobRunr, " + workers + " workers",
                () ->
                    String.format(
                        "started %d of %d, unfinished %d", p.started(), n, unfinished.get()),
                () -> {
                  if (t.isAlive() || p.started() < n) {
                    return false;
                  }
                  if (System.currentTimeMillis() - lastCheck.get() >= 100) {
                    lastCheck.set(System.currentTimeMillis());
                    unfinished.set(uncheck(p::unfinished));
                  }
                  return unfinished.get() == 0;
                },
                Duration.ofSeconds(Math.max(120, n / 100)));
        long end = System.currentTimeMillis();
        double rate = p.started() * 1000.0 / Math.max(1, end - start);
        sweep
            .append(sweep.length() == 0 ? "" : ", ")
            .append(workers)
            .append(" workers ")
            .append(Math.round(rate))
            .append(done ? "" : " (timed out)");
        run.out.printf("  JobRunr, %d workers: %.0f jobs/s%n", workers, rate);
        if (done && rate > best) {
          best = rate;
          bestWorkers = workers;
          bestSeries = new ArrayList<>();
          for (long s = start / 1000; s <= end / 1000; s++) {
            var a = p.perSecond().get(s);
            bestSeries.add(new long[] {s * 1000 - start, a == null ? 0 : a.sum()});
          }
        }
      }
    }
    r.put("jobrunr_sweep", sweep.toString());
    if (bestSeries == null) {
      r.put("peer_jobrunr_completed", false);
      return;
    }
    r.put("jobrunr_settings", JobRunrPeer.settings(bestWorkers));
    r.put("peer_jobrunr_jobs_per_s", best);
    r.put("peer_jobrunr_workers", bestWorkers);
    r.put("peer_jobrunr_completed", true);
    r.throughput.put("JobRunr", bestSeries);
    if (r.get("throughput_tasks_per_s") instanceof Double d) {
      r.put("tasklane_vs_jobrunr", d / best);
    }
    run.out.printf(
        "  JobRunr %.0f jobs/s at %d workers (first enqueue → every job succeeded); sweep: %s%n",
        best, bestWorkers, sweep);
  }

  void delay() throws Exception {
    long pending = run.options.pending();
    int m = run.options.delayTasks();
    long windowMs = run.options.delayWindowSeconds() * 1000L;
    try (Peer p = open()) {
      long far = System.currentTimeMillis() + Duration.ofDays(1).toMillis();
      Thread t =
          Scenarios.background(
              () -> p.insert(pending, 1000, 4, i -> Instant.ofEpochMilli(far + i % 60_000)));
      run.progress(
          "db-scheduler: inserting far-future executions",
          () -> "…",
          () -> !t.isAlive(),
          Duration.ofMinutes(20));
      long first = System.currentTimeMillis() + 8_000;
      p.insert(m, 100, 2, i -> Instant.ofEpochMilli(first + i * windowMs / m));
      run.progress(
          String.format(
              "db-scheduler: %d due over %d s, %d pending",
              m, run.options.delayWindowSeconds(), pending),
          () -> p.starts().size() + "/" + m + " started",
          () -> p.starts().size() >= m,
          Duration.ofMillis(first - System.currentTimeMillis() + windowMs + 60_000));
      Histogram h = Results.histogram();
      long early = 0;
      for (Map.Entry<String, Long> e : p.starts().entrySet()) {
        long due = Long.parseLong(e.getKey().substring(e.getKey().indexOf('-') + 1));
        early += e.getValue() < due ? 1 : 0;
        h.recordValue(Math.max(0, e.getValue() - due));
      }
      r.put("dbscheduler_lateness_missing", m - h.getTotalCount());
      r.put("dbscheduler_lateness_p50_ms", h.getValueAtPercentile(50));
      r.put("dbscheduler_lateness_p99_ms", h.getValueAtPercentile(99));
      r.put("dbscheduler_lateness_max_ms", h.getMaxValue());
      r.put("dbscheduler_early_starts", early);
      r.lateness.put("db-scheduler", h);
      run.out.printf(
          "  db-scheduler lateness with %d pending: p50 %d ms, p99 %d ms, max %d ms; early starts %d%n",
          pending, h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getMaxValue(), early);
      p.clear();
    }
  }

  interface Call<T> {
    T call() throws Exception;
  }

  static <T> T uncheck(Call<T> c) {
    try {
      return c.call();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
