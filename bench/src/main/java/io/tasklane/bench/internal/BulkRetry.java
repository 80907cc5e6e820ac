package io.tasklane.bench.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * The bulk part of {@code bin/bench api}: one {@code POST /api/tasks/bulk/retry-dead} of every DEAD
 * task of one handler (asOf = now), then {@code GET /api/jobs/{job}} every 50 ms until the job is
 * DONE (every command written and every task seen out of DEAD) or FAILED. Timed on the bench's wall
 * clock from the POST to the answer that says DONE; results {@code api_bulk_retry_tasks} (the job's
 * {@code applied}), {@code api_bulk_retry_seconds}, {@code api_bulk_retry_tasks_per_s}. Runs on the
 * bench's main thread.
 */
final class BulkRetry {
  private static final Duration TIMEOUT = Duration.ofMinutes(15);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final BenchRun run;
  private final String handler;

  BulkRetry(BenchRun run, String handler) {
    this.run = run;
    this.handler = handler;
  }

  /** Retries the handler's {@code dead} DEAD tasks; fails the scenario when the job does not. */
  void run(long dead) throws Exception {
    String body =
        WireCodec.encodeToString(
            Map.of(
                "filter",
                Map.of("handler", handler, "state", "DEAD"),
                "asOf",
                System.currentTimeMillis()));
    long t0 = System.nanoTime();
    HttpResponse<String> posted = send("POST", "/api/tasks/bulk/retry-dead", body);
    if (posted.statusCode() != 202) {
      throw new IllegalStateException(
          "bulk retry-dead answered " + posted.statusCode() + ": " + posted.body());
    }
    String job = WireCodec.readTree(posted.body()).path("job").asText();
    JsonNode[] last = new JsonNode[1];
    boolean finished =
        run.progress(
            "bulk retry-dead of " + dead + " DEAD tasks",
            () -> last[0] == null ? "started" : "applied " + last[0].path("applied").asLong(),
            () -> {
              last[0] = job(job);
              String state = last[0] == null ? "" : last[0].path("state").asText();
              return state.equals("DONE") || state.equals("FAILED");
            },
            TIMEOUT);
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (!finished || !"DONE".equals(last[0].path("state").asText())) {
      throw new IllegalStateException("bulk retry-dead job " + job + " did not finish: " + last[0]);
    }
    long applied = last[0].path("applied").asLong();
    if (last[0].path("failed").asLong() > 0 || applied < dead) {
      throw new IllegalStateException(
          "bulk retry-dead applied " + applied + " of " + dead + " DEAD tasks: " + last[0]);
    }
    run.results.put("api_bulk_retry_tasks", applied);
    run.results.put("api_bulk_retry_seconds", Math.round(seconds * 100) / 100.0);
    run.results.put("api_bulk_retry_tasks_per_s", Math.round(applied / seconds));
    run.out.printf(
        "%n  bulk retry-dead: %d tasks in %.2f s (%.0f tasks/s)%n",
        applied, seconds, applied / seconds);
  }

  private JsonNode job(String id) {
    try {
      HttpResponse<String> r = send("GET", "/api/jobs/" + id, null);
      return r.statusCode() == 200 ? WireCodec.readTree(r.body()) : null;
    } catch (Exception e) {
      return null;
    }
  }

  private HttpResponse<String> send(String method, String path, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + run.schedulerPort + path))
            .header("Authorization", "Bearer " + Recipes.ADMIN_TOKEN)
            .header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(30));
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
