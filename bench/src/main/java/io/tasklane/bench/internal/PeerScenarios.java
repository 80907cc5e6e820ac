package io.tasklane.bench.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/** db-scheduler's throughput and delay scenarios, on the run's database, in the run's JVM. */
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
