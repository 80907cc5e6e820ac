package io.tasklane.worker.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.Topics;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.Secrets;
import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The real scheduler ({@code SchedulerApp} of scheduler-streams) as a child JVM on the test stack,
 * for tests of what a worker and the scheduler do together (interrupts, heartbeats, handler
 * settings). Built from {@code ../scheduler-streams/target} (build that module first, e.g. {@code
 * bin/test -pl scheduler-streams,worker-runtime -am}); an operator token random per run. Closing it
 * stops the process.
 */
public final class SchedulerChild implements AutoCloseable {
  /** The token the scheduler accepts (named {@code ops}, role admin: handler settings need it). */
  public static final String OPERATOR = Secrets.token();

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  public final int port;
  private final JavaProcess process;

  private SchedulerChild(JavaProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * Starts a scheduler on {@code topics} with {@code partitions} (the fixture's results topic has
   * 3) and waits until it is UP; {@code settings} are extra {@code tasklane.scheduler.*} keys.
   */
  public static SchedulerChild start(
      LocalStack stack, Topics topics, Path stateDir, int partitions, Map<String, String> settings)
      throws Exception {
    Path target = Path.of("..", "scheduler-streams", "target").toAbsolutePath().normalize();
    Path cpFile = target.resolve("app.classpath");
    if (!Files.exists(cpFile)) {
      throw new IllegalStateException(cpFile + " is missing: build scheduler-streams first");
    }
    String cp = target.resolve("classes") + File.pathSeparator + Files.readString(cpFile).trim();
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    JavaProcess.Builder b =
        JavaProcess.builder("io.tasklane.scheduler.SchedulerApp")
            .classpath(cp)
            .name("scheduler-" + topics.namespace())
            .jvmArg("-Xmx256m")
            .sysProp("micronaut.server.port", String.valueOf(port))
            .sysProp("tasklane.scheduler.bootstrap-servers", stack.bootstrapServers())
            .sysProp("tasklane.scheduler.namespace", topics.namespace())
            .sysProp("tasklane.scheduler.partitions", String.valueOf(partitions))
            .sysProp("tasklane.scheduler.state-dir", stateDir.toString())
            .sysProp("tasklane.scheduler.topic-refresh-interval", "1s")
            .sysProp("tasklane.scheduler.api.tokens", "ops:" + OPERATOR + ":admin")
            .sysProp("tasklane.scheduler.inter-instance-token", Secrets.token())
            .sysProp("tasklane.scheduler.kafka.session.timeout.ms", "6000")
            .sysProp("tasklane.scheduler.kafka.heartbeat.interval.ms", "1000");
    settings.forEach((k, v) -> b.sysProp("tasklane.scheduler." + k, v));
    SchedulerChild child = new SchedulerChild(b.start(), port);
    try {
      await()
          .atMost(Duration.ofSeconds(90))
          .ignoreExceptionsInstanceOf(ConnectException.class)
          .failFast("the scheduler process exited", () -> !child.process.isAlive())
          .untilAsserted(
              () -> assertThat(child.get("/health").body()).as(child.logTail()).contains("\"UP\""));
    } catch (RuntimeException | Error e) {
      child.close();
      throw e;
    }
    return child;
  }

  /** GET {@code path} with the operator token. */
  public HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** POST {@code path} (no body) with the operator token. */
  public HttpResponse<String> post(String path) throws IOException, InterruptedException {
    return HTTP.send(
        request(path).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + OPERATOR);
  }

  /** The last lines of the scheduler's log, for failure messages. */
  public String logTail() {
    return process.logTail(60);
  }

  @Override
  public void close() {
    process.close();
  }
}
