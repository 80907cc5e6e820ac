package io.tasklane.bench.internal;

import io.tasklane.bench.LaneHandler;
import io.tasklane.core.Topics;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.TaskBatch;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The batch scenario (docs/batches.md): {@value #BATCHES} batches of {@value #MEMBERS} members each
 * (quick: a fifth), every batch added and sealed with an onComplete callback in one transaction,
 * all committed back to back so that the batches' members run interleaved on one worker ({@link
 * LaneHandler}, which records each call's start and end on the machine's monotonic clock).
 * Measured: that every batch made exactly one callback, and the time from its last member's end to
 * its callback's start (the member's result, the notice to the batch's partition, the callback's
 * admission and dispatch), p50 and max over the batches; and the members run a second.
 *
 * <p>The callbacks run on the worker's other handler ({@value LaneHandler#LIMITED}), so that a
 * callback does not queue in the worker behind the other batches' members.
 *
 * <p>Runs on the bench thread. Stops its worker, also on failure.
 */
final class BatchScenario {
  static final int BATCHES = 20;
  static final int MEMBERS = 1_000;
  static final int IDLE_BATCHES = 20;
  static final int IDLE_MEMBERS = 10;
  private static final String MEMBER_GROUP = "batch";
  private static final String CALLBACK_GROUP = "batch-cb";

  private final BenchRun run;
  private final Results r;
  private final Topics topics;

  BatchScenario(BenchRun run, Topics topics) {
    this.run = run;
    this.r = run.results;
    this.topics = topics;
  }

  void run() throws Exception {
    Path dir = run.apps.logs().resolve("batches-" + System.currentTimeMillis());
    Files.createDirectories(dir);
    Path events = dir.resolve("worker-batch.events");
    JavaProcess worker = run.track(Recipes.laneWorker(run.apps, "worker-batch", events).start());
    try {
      new HandlerAdmin(run)
          .awaitTopics(
              worker,
              List.of(topics.handler(LaneHandler.NAME), topics.handler(LaneHandler.LIMITED)));
      int batches = run.options.quick() ? BATCHES / 5 : BATCHES;
      int members = run.options.quick() ? MEMBERS / 5 : MEMBERS;
      run.step(
          String.format(
              "batches: %d batches of %,d members, each sealed with an onComplete callback in its"
                  + " transaction",
              batches, members));
      String prefix = "bench-" + Long.toString(System.currentTimeMillis(), 36) + "-";
      idle(events, prefix);
      long offset = Files.size(events);
      try (Connection c = DriverManager.getConnection(run.url, run.db.user(), run.db.password())) {
        c.setAutoCommit(false);
        for (int b = 0; b < batches; b++) {
          commitBatch(c, prefix + b, members);
        }
      }
      Map<Path, Long> from = Map.of(events, offset);
      int[] seen = {0};
      long[] checked = {0};
      boolean done =
          run.progress(
              "the batches' members and callbacks",
              () -> String.format("%d of %d callbacks started", seen[0], batches),
              () -> {
                if (System.currentTimeMillis() - checked[0] >= 1_000) {
                  checked[0] = System.currentTimeMillis();
                  seen[0] = callbackStarts(from).size();
                }
                return seen[0] >= batches;
              },
              Duration.ofSeconds(300));
      if (!done) {
        throw new IllegalStateException(seen[0] + " of " + batches + " batch callbacks started");
      }
      measure(from, batches, members);
    } finally {
      worker.stop(Duration.ofSeconds(10));
    }
  }

  /** Adds {@code members} members to batch {@code id} and seals it, in one transaction. */
  private static void commitBatch(Connection c, String id, int members) throws Exception {
    List<TaskRequest> requests = new ArrayList<>(members);
    for (int i = 0; i < members; i++) {
      requests.add(
          TaskRequest.to(LaneHandler.NAME).payload(Map.of("g", MEMBER_GROUP, "k", id, "s", i)));
    }
    TaskBatch batch = JdbcTaskOutbox.of(c).batch(id);
    batch.enqueueAll(requests);
    batch.seal(
        null,
        TaskRequest.to(LaneHandler.LIMITED).payload(Map.of("g", CALLBACK_GROUP, "k", id, "s", 0)));
    c.commit();
  }

  /**
   * One small batch at a time ({@value #IDLE_MEMBERS} members) on an otherwise idle pipeline: the
   * last member's end → the callback's start is then the batch's own path (the member's result, the
   * notice to the batch's partition, the callback's admission and dispatch), no queue.
   */
  private void idle(Path events, String prefix) throws Exception {
    int n = run.options.quick() ? 5 : IDLE_BATCHES;
    run.step(
        String.format(
            "batches: %d batches of %d members one after another on the idle pipeline",
            n, IDLE_MEMBERS));
    List<Double> latencies = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(run.url, run.db.user(), run.db.password())) {
      c.setAutoCommit(false);
      for (int b = 0; b < n; b++) {
        Map<Path, Long> from = Map.of(events, Files.exists(events) ? Files.size(events) : 0L);
        String id = prefix + "idle-" + b;
        commitBatch(c, id, IDLE_MEMBERS);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<Long> started;
        while ((started = callbackStarts(from).get(id)) == null) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("batch " + id + ": no callback within 60 s");
          }
          Thread.sleep(20);
        }
        long lastEnd = Long.MIN_VALUE;
        for (LanesScenario.Event e : LanesScenario.events(from, LaneHandler.NAME, MEMBER_GROUP)) {
          if (e.kind() == 'E') {
            lastEnd = Math.max(lastEnd, e.nanos());
          }
        }
        latencies.add((started.get(0) - lastEnd) / 1e6);
      }
    }
    double[] sorted = latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    r.put("batch_idle_batches", n);
    r.put("batch_callback_idle_ms_p50", sorted[sorted.length / 2]);
    r.put("batch_callback_idle_ms_max", sorted[sorted.length - 1]);
    run.out.printf(
        "  idle: last member's end → callback start p50 %.1f ms, max %.1f ms over %d batches%n",
        sorted[sorted.length / 2], sorted[sorted.length - 1], n);
  }

  private void measure(Map<Path, Long> from, int batches, int members) throws Exception {
    Map<String, Long> lastEnd = new HashMap<>();
    long firstStart = Long.MAX_VALUE;
    long lastMemberEnd = Long.MIN_VALUE;
    for (LanesScenario.Event e : LanesScenario.events(from, LaneHandler.NAME, MEMBER_GROUP)) {
      if (e.kind() == 'S') {
        firstStart = Math.min(firstStart, e.nanos());
      } else if (e.kind() == 'E') {
        lastEnd.merge(e.key(), e.nanos(), Math::max);
        lastMemberEnd = Math.max(lastMemberEnd, e.nanos());
      }
    }
    Map<String, List<Long>> callbacks = callbackStarts(from);
    long extra = callbacks.values().stream().mapToLong(l -> l.size() - 1L).sum();
    double[] latency =
        callbacks.entrySet().stream()
            .mapToDouble(x -> (x.getValue().get(0) - lastEnd.getOrDefault(x.getKey(), 0L)) / 1e6)
            .sorted()
            .toArray();
    double p50 = latency[latency.length / 2];
    double max = latency[latency.length - 1];
    double perSecond = (long) batches * members / ((lastMemberEnd - firstStart) / 1e9);
    r.put("batch_batches", batches);
    r.put("batch_members_per_batch", members);
    r.put("batch_callbacks", callbacks.size());
    r.put("batch_callback_extra_starts", extra);
    r.put("batch_callback_under_load_ms_p50", p50);
    r.put("batch_callback_under_load_ms_max", max);
    r.put("batch_members_per_s", perSecond);
    run.out.printf(
        "  %d batches, %d callbacks (%d extra starts); last member's end → callback start p50"
            + " %.1f ms, max %.1f ms; members run at %,.0f/s%n",
        batches, callbacks.size(), extra, p50, max, perSecond);
  }

  /** The starts of each batch's callback (normally one), by batch id. */
  private static Map<String, List<Long>> callbackStarts(Map<Path, Long> from) {
    Map<String, List<Long>> out = new HashMap<>();
    try {
      for (LanesScenario.Event e :
          LanesScenario.events(from, LaneHandler.LIMITED, CALLBACK_GROUP)) {
        if (e.kind() == 'S') {
          out.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e.nanos());
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    out.values().forEach(l -> l.sort(null));
    return out;
  }
}
