package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.WorkerFixture;
import jakarta.inject.Singleton;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The worker's health indicators under Micronaut management's {@code /health}, served by a real
 * HTTP server of a worker context on the shared stack: Kafka reachable, idempotency store reachable
 * (readiness) and handlers consuming (liveness).
 */
@TasklaneStack
class WorkerHealthTest {
  private static final List<String> HANDLERS = List.of("hello");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Singleton
  @Requires(property = "test.suite", value = "health")
  static class Handlers {
    @TaskHandler("hello")
    public void hello(String payload) {}
  }

  @Test
  void healthIsUpWithKafkaIdempotencyStoreAndHandlersDetailsWhenEverythingAnswers(LocalStack stack)
      throws Exception {
    try (WorkerFixture fx = new WorkerFixture(stack, "health", HANDLERS);
        ApplicationContext ctx = ApplicationContext.run(fx.properties(httpServer()))) {
      int port = start(ctx);

      JsonNode health = awaitStatus(port, "/health", 200);
      assertThat(health.path("status").asText()).isEqualTo("UP");
      JsonNode details = health.path("details");
      assertThat(details.path("tasklane-worker-kafka").path("status").asText()).isEqualTo("UP");
      assertThat(details.path("tasklane-worker-kafka").path("details").path("brokers").asInt())
          .isPositive();
      assertThat(health.toString())
          .as("no address of the Kafka cluster in the details")
          .doesNotContain("bootstrap")
          .doesNotContain(stack.bootstrapServers());
      assertThat(details.path("tasklane-worker-idempotency").path("status").asText())
          .isEqualTo("UP");
      assertThat(details.path("tasklane-worker-idempotency").path("details").path("store").asText())
          .isEqualTo(JdbcIdempotencyStore.class.getName());
      JsonNode handlers = details.path("tasklane-worker-handlers");
      assertThat(handlers.path("status").asText()).isEqualTo("UP");
      assertThat(handlers.path("details").path("handlers").path("hello").asText())
          .isEqualTo("consuming");
      JsonNode consumers = details.path("tasklane-worker-consumers");
      assertThat(consumers.path("status").asText()).isEqualTo("UP");
      assertThat(consumers.path("details").path("handlers").path("hello").asText())
          .isEqualTo("fetching");
      assertThat(get(port, "/health/liveness").statusCode()).isEqualTo(200);
      assertThat(get(port, "/health/readiness").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void readinessIsDownNamingTheStoreErrorWhenItsDatabaseIsUnreachableWhileLivenessStaysUp(
      LocalStack stack) throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort(); // closed again: nothing listens there
    }
    try (WorkerFixture fx = new WorkerFixture(stack, "health", HANDLERS)) {
      Map<String, Object> props = httpServer();
      props.put("test.jdbc.url", "jdbc:mariadb://127.0.0.1:" + deadPort + "/" + fx.database);
      props.put("test.jdbc.options", "&connectTimeout=1000");
      try (ApplicationContext ctx = ApplicationContext.run(fx.properties(props))) {
        int port = start(ctx);

        JsonNode readiness = awaitStatus(port, "/health/readiness", 503);
        assertThat(readiness.path("status").asText()).isEqualTo("DOWN");
        JsonNode store = readiness.path("details").path("tasklane-worker-idempotency");
        assertThat(store.path("status").asText()).isEqualTo("DOWN");
        assertThat(store.path("details").path("error").asText())
            .contains("tasklane_processed")
            .containsIgnoringCase("connect");
        assertThat(readiness.path("details").path("tasklane-worker-kafka").path("status").asText())
            .isEqualTo("UP");

        JsonNode liveness = awaitStatus(port, "/health/liveness", 200);
        assertThat(
                liveness.path("details").path("tasklane-worker-handlers").path("status").asText())
            .isEqualTo("UP");
        assertThat(get(port, "/health").statusCode()).isEqualTo(503);
      }
    }
  }

  /** An HTTP server on any free port with /health details visible; micronaut-kafka's own off. */
  private static Map<String, Object> httpServer() {
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.server.port", -1);
    p.put("endpoints.health.enabled", true);
    p.put("endpoints.health.sensitive", false);
    p.put("endpoints.health.details-visible", "ANONYMOUS");
    p.put("kafka.health.enabled", false);
    return p;
  }

  private static int start(ApplicationContext ctx) {
    EmbeddedServer server = ctx.getBean(EmbeddedServer.class);
    server.start();
    return server.getPort();
  }

  private static JsonNode awaitStatus(int port, String path, int status) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              HttpResponse<String> r = get(port, path);
              return r.statusCode() == status ? JSON.readTree(r.body()) : null;
            },
            node -> node != null);
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
