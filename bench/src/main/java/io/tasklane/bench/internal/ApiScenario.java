package io.tasklane.bench.internal;

import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.harness.TasklaneApps;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;

/**
 * {@code bin/bench api}: the operator API's latency with the scheduler holding {@code --scale} more
 * tasks (1,000,000 by default, and at most {@link #MAX_HELD}, so that {@code --long}, whose scale
 * scenario already leaves 10,000,000, does not add ten million more): far-future tasks preloaded
 * straight to {@code <ns>.tasks}, plus 10 % (at least 1,000) of handler {@value #FAILING} made DEAD
 * for real — dispatched, answered FAILED by a failing handler in this process, maxAttempts 1. Then
 * {@value #REQUESTS} requests each of the first page (50) of that handler's DEAD tasks and of the
 * counts per state and handler; results {@code api_dead_page_p50_ms}, {@code api_dead_page_p99_ms},
 * {@code api_counts_p50_ms}, {@code api_counts_p99_ms}. Last, one bulk {@code retry-dead} job of
 * every DEAD task of that handler, timed from its POST until {@code GET /api/jobs/{job}} answers
 * DONE ({@link BulkRetry}).
 */
final class ApiScenario {
  static final String FAILING = "bench.fail";
  static final int REQUESTS = 300;

  /** The most tasks this scenario adds. */
  static final long MAX_HELD = 1_000_000L;

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final BenchRun run;
  private final Topics topics;

  ApiScenario(BenchRun run, Topics topics) {
    this.run = run;
    this.topics = topics;
  }

  void run() throws Exception {
    long n = Math.min(run.options.scalePending(), MAX_HELD);
    long dead = Math.max(1_000, n / 10);
    long before = sum(get("/api/tasks/counts"), null);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", run.stack.bootstrapServers()))) {
      TopicAdmin.ensure(
          admin,
          List.of(TopicAdmin.Spec.of(topics.handler(FAILING), TopicAdmin.DEFAULT_PARTITIONS)));
    }
    ErrorInfo boom = new ErrorInfo("bench-failure", "the bench's failing handler", null);
    Answerer failer =
        new Answerer(
            run.stack.bootstrapServers(),
            topics,
            FAILING,
            d -> {
              long now = System.currentTimeMillis();
              return TaskResult.failed(
                  d.id(), d.attempt(), Outcome.FAILED, boom, null, now, now, "bench");
            });
    Thread load =
        Scenarios.background(
            () -> {
              Preloader.preload(
                  run.stack.bootstrapServers(), topics.tasks(), dead, 0, FAILING, 1, x -> {});
              Preloader.preload(
                  run.stack.bootstrapServers(),
                  topics.tasks(),
                  n - dead,
                  Duration.ofDays(1).toMillis(),
                  x -> {});
            });
    long[] held = new long[2];
    String[] failing = {"none yet"};
    run.progress(
        "holding " + n + " tasks, " + dead + " of them DEAD",
        () -> "held " + held[0] + ", " + FAILING + ": " + failing[0],
        () -> {
          String counts = get("/api/tasks/counts");
          held[0] = sum(counts, null);
          held[1] = sum(counts, FAILING);
          failing[0] = statesOf(counts, FAILING);
          return held[0] - before >= n && held[1] >= dead;
        },
        Duration.ofSeconds(Math.max(300, n / 1000)));
    load.join();
    failer.close();
    Histogram page = measure("/api/tasks?handler=" + FAILING + "&state=DEAD&limit=50");
    Histogram counts = measure("/api/tasks/counts");
    Results r = run.results;
    r.put("api_tasks_held", held[0]);
    r.put("api_dead_page_p50_ms", page.getValueAtPercentile(50) / 1000.0);
    r.put("api_dead_page_p99_ms", page.getValueAtPercentile(99) / 1000.0);
    r.put("api_counts_p50_ms", counts.getValueAtPercentile(50) / 1000.0);
    r.put("api_counts_p99_ms", counts.getValueAtPercentile(99) / 1000.0);
    run.out.printf(
        "  %d tasks held: first page of DEAD p50 %.1f ms p99 %.1f ms; counts p50 %.1f ms p99 %.1f"
            + " ms%n",
        held[0],
        page.getValueAtPercentile(50) / 1000.0,
        page.getValueAtPercentile(99) / 1000.0,
        counts.getValueAtPercentile(50) / 1000.0,
        counts.getValueAtPercentile(99) / 1000.0);
    new BulkRetry(run, FAILING).run(held[1]);
  }

  /** {@link #REQUESTS} GETs of {@code path} after 20 to warm up; microseconds. */
  private Histogram measure(String path) {
    Histogram h = Results.histogram();
    for (int i = 0; i < REQUESTS + 20; i++) {
      long t0 = System.nanoTime();
      String body = get(path);
      long us = (System.nanoTime() - t0) / 1_000;
      if (body.isEmpty()) {
        throw new IllegalStateException("GET " + path + " failed");
      }
      if (i >= 20) {
        h.recordValue(us);
      }
    }
    return h;
  }

  private static final Pattern COUNT =
      Pattern.compile("\"handler\":\"([^\"]+)\",\"state\":\"([A-Z_]+)\",\"count\":(\\d+)");

  /** Tasks in the counts answer: of {@code deadOf}'s DEAD only, or all when null. */
  private static long sum(String counts, String deadOf) {
    long s = 0;
    Matcher m = COUNT.matcher(counts);
    while (m.find()) {
      if (deadOf == null || (m.group(1).equals(deadOf) && m.group(2).equals("DEAD"))) {
        s += Long.parseLong(m.group(3));
      }
    }
    return s;
  }

  /** The states of {@code handler}'s tasks in the counts answer, as {@code STATE n} pairs. */
  private static String statesOf(String counts, String handler) {
    StringBuilder b = new StringBuilder();
    Matcher m = COUNT.matcher(counts);
    while (m.find()) {
      if (m.group(1).equals(handler)) {
        b.append(b.length() == 0 ? "" : ", ").append(m.group(2)).append(' ').append(m.group(3));
      }
    }
    return b.length() == 0 ? "none yet" : b.toString();
  }

  private String get(String path) {
    try {
      HttpRequest req =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + run.schedulerPort + path))
              .header("Authorization", "Bearer " + TasklaneApps.TOKEN)
              .timeout(Duration.ofSeconds(30))
              .build();
      HttpResponse<String> resp = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
      return resp.statusCode() == 200 ? resp.body() : "";
    } catch (Exception e) {
      return "";
    }
  }
}
