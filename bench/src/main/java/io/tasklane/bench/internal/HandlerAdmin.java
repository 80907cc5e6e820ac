package io.tasklane.bench.internal;

import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.apache.kafka.clients.admin.Admin;

/**
 * What the lanes and priorities scenarios ask of the scheduler's API (with {@link
 * Recipes#ADMIN_TOKEN}) and of their own workers: a handler paused while a backlog of its tasks is
 * enqueued through the outbox, so that the whole backlog waits in the scheduler; the handler topics
 * a worker creates; a worker that died. Called on the bench thread.
 */
final class HandlerAdmin {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  static final int THREADS = 4;

  private final BenchRun run;

  HandlerAdmin(BenchRun run) {
    this.run = run;
  }

  /**
   * Pauses {@code handler}, enqueues {@code n} tasks {@code task.apply(i)} through the outbox (in
   * transactions of 100 on {@value #THREADS} connections) and waits until the scheduler counts them
   * PENDING; the handler stays paused (see {@link #resume}). Returns false when they were not all
   * counted in time.
   */
  boolean backlogPaused(
      String label, String handler, long n, LongFunction<TaskRequest> task, JavaProcess worker)
      throws Exception {
    post("/api/handlers/" + handler + "/pause");
    long pendingBefore = Probes.schedulerTasks(run.schedulerPort, "PENDING");
    Enqueuer e = new Enqueuer(run.url, run.db.user(), run.db.password());
    Thread load = Scenarios.background(() -> e.strided(n, 100, THREADS, task, false));
    long[] pending = {pendingBefore};
    long[] sampled = {0};
    boolean admitted =
        run.progress(
            label,
            () ->
                String.format(
                    "committed %d, PENDING %d of %d", e.enqueued(), pending[0] - pendingBefore, n),
            () -> {
              if (System.currentTimeMillis() - sampled[0] >= 1000) {
                sampled[0] = System.currentTimeMillis();
                pending[0] = Probes.schedulerTasks(run.schedulerPort, "PENDING");
              }
              return !load.isAlive() && pending[0] - pendingBefore >= n || dead(worker);
            },
            Duration.ofSeconds(Math.max(240, n / 1_000)));
    load.join();
    return admitted;
  }

  /** Resumes {@code handler}: its queue is released from now on. */
  void resume(String handler) throws Exception {
    post("/api/handlers/" + handler + "/resume");
  }

  /** Waits until {@code worker} created the handler topics {@code wanted}. */
  void awaitTopics(JavaProcess worker, List<String> wanted) throws Exception {
    try (Admin admin = Admin.create(run.stack.kafkaAdminProperties())) {
      run.progress(
          "starting " + worker.name(),
          () -> "waiting for " + wanted,
          () -> {
            dead(worker);
            try {
              return admin.listTopics().names().get(10, TimeUnit.SECONDS).containsAll(wanted);
            } catch (Exception e) {
              return false;
            }
          },
          Duration.ofMinutes(2));
    }
  }

  /** False while {@code worker} runs; throws with its log's tail once it exited. */
  static boolean dead(JavaProcess worker) {
    if (!worker.isAlive()) {
      throw new IllegalStateException(worker.name() + " exited:\n" + worker.logTail(30));
    }
    return false;
  }

  String post(String path) throws Exception {
    return send("POST", path);
  }

  String get(String path) throws Exception {
    return send("GET", path);
  }

  private String send(String method, String path) throws Exception {
    HttpResponse<String> res =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + run.schedulerPort + path))
                .header("Authorization", "Bearer " + Recipes.ADMIN_TOKEN)
                .timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (res.statusCode() / 100 != 2) {
      throw new IllegalStateException(
          method + " " + path + ": " + res.statusCode() + " " + res.body());
    }
    return res.body();
  }
}
