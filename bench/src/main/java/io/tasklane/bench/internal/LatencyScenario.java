package io.tasklane.bench.internal;

import io.tasklane.bench.NoopHandler;
import io.tasklane.core.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The latency scenario: commit → handler start of no-op tasks offered one per transaction at a
 * steady rate, split into its hops at the producer timestamps of each task's records — the relay's
 * (commit → its record on {@code <ns>.tasks}), the scheduler's (→ its dispatch on the handler
 * topic) and the worker's (→ handler start) — so that a tail can be put on the hop that makes it.
 * Runs on the bench thread; the load on its own threads.
 */
final class LatencyScenario {
  /** Seconds of the load that go before the measured ones. */
  static final int LEAD_IN_S = 30;

  private static final int THREADS = 4;
  private static final Duration WAIT_FOR_STARTS = Duration.ofSeconds(60);

  private final BenchRun run;
  private final Results r;
  private final Topics topics;
  private final Enqueuer enqueuer;

  LatencyScenario(BenchRun run, Topics topics, Enqueuer enqueuer) {
    this.run = run;
    this.r = run.results;
    this.topics = topics;
    this.enqueuer = enqueuer;
  }

  void run() throws Exception {
    int rate = run.options.latencyRate();
    leadIn(rate);
    try (DispatchTap relayed = new DispatchTap(run.stack.bootstrapServers(), topics.tasks());
        DispatchTap dispatched =
            new DispatchTap(run.stack.bootstrapServers(), topics.handler(NoopHandler.NAME))) {
      measure(rate, run.options.latencySeconds(), relayed, dispatched);
    }
  }

  /**
   * The load for {@value #LEAD_IN_S} s first, not measured: the warm-up commits 100 tasks per
   * transaction, so one task per transaction is a path that the JITs of the relay, the scheduler,
   * the worker and this driver have not compiled yet; measured without it, the first half minute of
   * the scenario ran at twice the CPU of the rest in every process.
   */
  private void leadIn(int rate) throws Exception {
    Map<String, Long> commits =
        load(
            String.format("lead-in, not measured: %d tasks/s for %d s", rate, LEAD_IN_S),
            rate,
            LEAD_IN_S);
    StartLatency.awaitStarts(
        run, "lead-in: waiting for its tasks", commits, () -> false, WAIT_FOR_STARTS);
  }

  private Map<String, Long> load(String label, int rate, int seconds) throws Exception {
    enqueuer.clear();
    return StartLatency.offer(
        run,
        label,
        enqueuer,
        seconds,
        () -> enqueuer.paced(rate, seconds, THREADS, null),
        () -> false);
  }

  private void measure(int rate, int secs, DispatchTap relayed, DispatchTap dispatched)
      throws Exception {
    long start = System.currentTimeMillis();
    Map<String, Long> commits =
        load(String.format("offering %d tasks/s for %d s", rate, secs), rate, secs);
    double offered = commits.size() * 1000.0 / Math.max(1, System.currentTimeMillis() - start);
    StartLatency.awaitStarts(
        run, "waiting for the handlers", commits, () -> false, WAIT_FOR_STARTS);
    Path csv = writeHops(commits, relayed, dispatched);
    Histogram h = Results.histogram();
    Histogram relay = Results.histogram();
    Histogram scheduler = Results.histogram();
    Histogram worker = Results.histogram();
    commits.forEach(
        (id, c) -> {
          Long s = run.tap.startOf(id);
          Long t = relayed.sentAt(id);
          Long d = dispatched.sentAt(id);
          if (s != null) {
            h.recordValue(Math.max(0, s - c));
          }
          if (t != null && d != null && s != null) {
            relay.recordValue(Math.max(0, t - c));
            scheduler.recordValue(Math.max(0, d - t));
            worker.recordValue(Math.max(0, s - d));
          }
        });
    r.put("latency_offered_tasks_per_s", offered);
    r.put("latency_p50_ms", h.getValueAtPercentile(50));
    r.put("latency_p90_ms", h.getValueAtPercentile(90));
    r.put("latency_p99_ms", h.getValueAtPercentile(99));
    r.put("latency_max_ms", h.getMaxValue());
    r.put("latency_missing", commits.size() - h.getTotalCount());
    Map<String, Histogram> hops = Map.of("relay", relay, "scheduler", scheduler, "worker", worker);
    hops.forEach(
        (hop, x) -> {
          r.put("latency_hop_" + hop + "_p50_ms", x.getValueAtPercentile(50));
          r.put("latency_hop_" + hop + "_p99_ms", x.getValueAtPercentile(99));
        });
    r.latencies.put("Tasklane commit → handler start", h);
    run.out.printf(
        "  commit → handler start at %.0f/s: p50 %d ms, p90 %d ms, p99 %d ms, max %d ms%n",
        offered,
        h.getValueAtPercentile(50),
        h.getValueAtPercentile(90),
        h.getValueAtPercentile(99),
        h.getMaxValue());
    run.out.printf(
        "  hops p50 / p99 (%d tasks seen on both topics; each task's instants in %s): relay %d / %d ms (commit → <ns>.tasks),"
            + " scheduler %d / %d ms (→ dispatch), worker %d / %d ms (→ handler start)%n",
        relay.getTotalCount(),
        csv,
        relay.getValueAtPercentile(50),
        relay.getValueAtPercentile(99),
        scheduler.getValueAtPercentile(50),
        scheduler.getValueAtPercentile(99),
        worker.getValueAtPercentile(50),
        worker.getValueAtPercentile(99));
  }

  /** Every task's instants (epoch ms; null: not seen) to {@code latency-hops.csv} of the run. */
  private Path writeHops(Map<String, Long> commits, DispatchTap relayed, DispatchTap dispatched)
      throws Exception {
    Path csv = run.runDir().resolve("latency-hops.csv");
    List<String> lines = new ArrayList<>(List.of("commit_ms,relayed_ms,dispatched_ms,started_ms"));
    commits.forEach(
        (id, c) ->
            lines.add(
                c
                    + ","
                    + relayed.sentAt(id)
                    + ","
                    + dispatched.sentAt(id)
                    + ","
                    + run.tap.startOf(id)));
    Files.write(csv, lines);
    return csv;
  }
}
