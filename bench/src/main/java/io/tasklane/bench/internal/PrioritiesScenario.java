package io.tasklane.bench.internal;

import io.tasklane.bench.LaneHandler;
import io.tasklane.core.Topics;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.HdrHistogram.Histogram;

/**
 * The priorities scenario, on a worker of its own ({@link Recipes#laneWorker}, handler {@value
 * LaneHandler#NAME}, every call {@value #HANDLER_MS} ms, nothing recorded) while the no-op worker
 * idles: high-priority tasks (priority {@value #HIGH}) at {@value #HIGH_RATE} tasks/s, commit →
 * handler start, (1) alone, then (2) while the handler works through a backlog of {@code
 * prioritiesBacklog} tasks of priority {@value #LOW}, enqueued through the outbox with the handler
 * paused (so that the whole backlog waits in the scheduler) and resumed as the high-priority load
 * starts; the ratio of the two p99, the backlog still to run when the load ended (> 0: the handler
 * stayed saturated) and the backlog's rate meanwhile. The scenario waits for the backlog to drain
 * before it goes on.
 *
 * <p>Runs on the bench thread; the loads run on their own threads. Stops its worker, also on
 * failure.
 */
final class PrioritiesScenario {
  static final int HIGH = 9;
  static final int LOW = 0;
  static final int HIGH_RATE = 50;

  /**
   * Each call's run: the worker's 4 threads then finish about 1,800 tasks/s, so that the backlog
   * outlasts the measure.
   */
  static final long HANDLER_MS = 2;

  private final BenchRun run;
  private final BenchOptions o;
  private final Results r;
  private final Topics topics;
  private final HandlerAdmin api;
  private DispatchTap dispatches;
  private DispatchTap relayed;

  PrioritiesScenario(BenchRun run, Topics topics) {
    this.run = run;
    this.o = run.options;
    this.r = run.results;
    this.topics = topics;
    this.api = new HandlerAdmin(run);
  }

  void run() throws Exception {
    Path dir = run.apps.logs().resolve("priorities-" + System.currentTimeMillis());
    Files.createDirectories(dir);
    JavaProcess worker =
        run.track(Recipes.laneWorker(run.apps, "worker-priorities", dir.resolve("events")).start());
    try {
      api.awaitTopics(worker, List.of(topics.handler(LaneHandler.NAME)));
      dispatches = new DispatchTap(run.stack.bootstrapServers(), topics.handler(LaneHandler.NAME));
      relayed = new DispatchTap(run.stack.bootstrapServers(), topics.tasks());
      measure(worker);
    } finally {
      try {
        if (dispatches != null) {
          dispatches.close();
        }
        if (relayed != null) {
          relayed.close();
        }
      } finally {
        worker.stop(Duration.ofSeconds(10));
      }
    }
  }

  private void measure(JavaProcess worker) throws Exception {
    int backlog = o.prioritiesBacklog();
    int seconds = o.quick() ? 10 : 30;
    run.step(
        String.format(
            "priorities: priority-%d tasks at %d/s for %d s, alone, then beside a backlog of %,d"
                + " priority-%d tasks (%d ms per call)",
            HIGH, HIGH_RATE, seconds, backlog, LOW, HANDLER_MS));
    // the same load first, not measured: the new worker's first calls (JIT, the group's join) and
    // the work the scenarios before left behind would otherwise land in the idle figure
    high("high-priority load warm-up (not measured)", "high-warm", 10, worker);
    StartLatency.Phase idle = high("high-priority load alone", "high-idle", seconds, worker);

    boolean admitted =
        api.backlogPaused(
            "the low-priority backlog into the scheduler (handler paused)",
            LaneHandler.NAME,
            backlog,
            i -> task("backlog", LOW),
            worker);
    long base = run.tap.succeeded();
    long queuedBefore = Probes.schedulerEvents(run.schedulerPort, "queued");
    long resumedAt = System.currentTimeMillis();
    api.resume(LaneHandler.NAME);
    StartLatency.Phase busy =
        high("high-priority load beside the backlog", "high-backlog", seconds, worker);
    long queued = Probes.schedulerEvents(run.schedulerPort, "queued") - queuedBefore;
    long highCount = busy.starts().getTotalCount();
    long backlogDone = busy.succeededWhenOffered() - base - busy.startedWhenOffered();
    long backlogLeft = backlog - backlogDone;
    double lowRate = backlogDone * 1000.0 / Math.max(1, busy.offeredAtMs() - resumedAt);
    run.progress(
        "the rest of the backlog",
        () -> String.format("succeeded %d of %d", run.tap.succeeded() - base - highCount, backlog),
        () -> run.tap.succeeded() - base - highCount >= backlog || HandlerAdmin.dead(worker),
        Duration.ofSeconds(Math.max(300, backlog / 500)));

    Histogram a = idle.starts();
    Histogram b = busy.starts();
    long p99Idle = a.getValueAtPercentile(99);
    long p99Busy = b.getValueAtPercentile(99);
    double ratio = p99Busy / (double) Math.max(1, p99Idle);
    r.put("priorities_backlog_tasks", backlog);
    r.put("priorities_backlog_admitted", admitted);
    r.put("priorities_handler_ms", HANDLER_MS);
    r.put("priorities_high_tasks_per_s", HIGH_RATE);
    r.put("priorities_high_seconds", seconds);
    r.put("priorities_high_idle_p50_ms", a.getValueAtPercentile(50));
    r.put("priorities_high_idle_p99_ms", p99Idle);
    r.put("priorities_high_idle_max_ms", a.getMaxValue());
    r.put("priorities_high_backlog_p50_ms", b.getValueAtPercentile(50));
    r.put("priorities_high_backlog_p99_ms", p99Busy);
    r.put("priorities_high_backlog_max_ms", b.getMaxValue());
    r.put("priorities_high_p99_ratio", ratio);
    r.put("priorities_backlog_left", backlogLeft);
    r.put("priorities_low_tasks_per_s", lowRate);
    r.put("priorities_queued_events", queued);
    run.out.printf(
        "  priority-%d commit → handler start p99: %d ms alone, %d ms beside the backlog (%.2f×);"
            + " p50 %d → %d ms, max %d → %d ms; the backlog ran %.0f tasks/s meanwhile, %,d of its"
            + " tasks still to run when the load ended%n",
        HIGH,
        p99Idle,
        p99Busy,
        ratio,
        a.getValueAtPercentile(50),
        b.getValueAtPercentile(50),
        a.getMaxValue(),
        b.getMaxValue(),
        lowRate,
        backlogLeft);
  }

  /**
   * Offers the high-priority load for {@code seconds} and waits for its tasks to start; records its
   * attempts' mean times unless it is the warm-up.
   */
  private StartLatency.Phase high(String label, String group, int seconds, JavaProcess worker)
      throws Exception {
    LongFunction<TaskRequest> task = i -> task(group, HIGH);
    StartLatency.Phase p =
        StartLatency.measure(
            run,
            label,
            HIGH_RATE,
            seconds,
            task,
            worker,
            Duration.ofSeconds(Math.max(120, o.prioritiesBacklog() / 1_000)),
            dispatches,
            relayed);
    String k = "priorities_" + group.replace('-', '_');
    if (!group.equals("high-warm")) {
      r.put(k + "_attempt_round_trip_mean_ms", p.roundTripMeanMs());
      r.put(k + "_attempt_on_the_way_mean_ms", p.onTheWayMeanMs());
      // where a high-priority task waited: in the relay and the scheduler, or in the handler topic
      r.put(k + "_to_dispatch_p50_ms", p.toDispatch().getValueAtPercentile(50));
      r.put(k + "_to_dispatch_p99_ms", p.toDispatch().getValueAtPercentile(99));
      r.put(k + "_dispatch_to_start_p50_ms", p.dispatchToStart().getValueAtPercentile(50));
      r.put(k + "_dispatch_to_start_p99_ms", p.dispatchToStart().getValueAtPercentile(99));
      // the way to the dispatch split at the relay's record: the relay, then the scheduler
      r.put(k + "_to_relayed_p99_ms", p.toRelayed().getValueAtPercentile(99));
      r.put(k + "_relayed_to_dispatch_p50_ms", p.relayedToDispatch().getValueAtPercentile(50));
      r.put(k + "_relayed_to_dispatch_p99_ms", p.relayedToDispatch().getValueAtPercentile(99));
      run.out.printf(
          "  %s: commit → relayed p50 %d / p99 %d ms, relayed → dispatch p50 %d / p99 %d ms%n",
          label,
          p.toRelayed().getValueAtPercentile(50),
          p.toRelayed().getValueAtPercentile(99),
          p.relayedToDispatch().getValueAtPercentile(50),
          p.relayedToDispatch().getValueAtPercentile(99));
      run.out.printf(
          "  %s: commit → dispatch p50 %d / p99 %d ms, dispatch → handler start p50 %d / p99 %d ms"
              + " (%d of %d tasks seen dispatched)%n",
          label,
          p.toDispatch().getValueAtPercentile(50),
          p.toDispatch().getValueAtPercentile(99),
          p.dispatchToStart().getValueAtPercentile(50),
          p.dispatchToStart().getValueAtPercentile(99),
          p.toDispatch().getTotalCount(),
          p.starts().getTotalCount());
    }
    return p;
  }

  private static TaskRequest task(String group, int priority) {
    return TaskRequest.to(LaneHandler.NAME)
        .payload(Map.of("g", group, "r", false, "ms", HANDLER_MS))
        .priority(priority);
  }
}
