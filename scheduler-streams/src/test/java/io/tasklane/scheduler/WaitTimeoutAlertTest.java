package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.ADMIN;
import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wait timeout on the real stack: tasks of a paused handler with a 2 s wait timeout make one
 * signed {@code wait-timeout} webhook post naming the handler and a task (the rest grouped into the
 * window's summary), the metric counts each, the task detail notes it, and the tasks keep waiting;
 * a task of the same handler without a wait timeout raises nothing.
 */
@TasklaneStack
class WaitTimeoutAlertTest {
  static final String HELD = "wait.held";
  static final String SECRET = Tokens.random();

  @TempDir Path stateDir;

  record Post(byte[] body, String signature, String timestamp, String delivery) {
    JsonNode json() {
      return WireCodec.readTree(new String(body, StandardCharsets.UTF_8));
    }
  }

  @Test
  void heldTasksPastTheirWaitTimeoutMakeOneSignedGroupedAlertAndKeepWaiting(LocalStack stack)
      throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HELD), 1));
    List<Post> posts = new CopyOnWriteArrayList<>();
    HttpServer receiver = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
    receiver.createContext(
        "/hook",
        ex -> {
          posts.add(
              new Post(
                  ex.getRequestBody().readAllBytes(),
                  ex.getRequestHeaders().getFirst("X-Tasklane-Signature"),
                  ex.getRequestHeaders().getFirst("X-Tasklane-Timestamp"),
                  ex.getRequestHeaders().getFirst("X-Tasklane-Delivery")));
          ex.sendResponseHeaders(204, -1);
          ex.close();
        });
    receiver.start();
    try (EmbeddedServer server =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, receiver));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      int port = server.getPort();
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(
                          StackSupport.post(port, "/api/handlers/" + HELD + "/pause", ADMIN)
                              .statusCode())
                      .isEqualTo(200));
      List<String> ids = new java.util.ArrayList<>();
      for (int i = 0; i < 3; i++) {
        TaskEnvelope t =
            StackSupport.task(HELD, System.currentTimeMillis()).toBuilder()
                .options(TaskOptions.builder().waitTimeoutMs(2000L).build())
                .build();
        StackSupport.send(producer, topics, t);
        ids.add(t.id());
      }
      TaskEnvelope plain = StackSupport.task(HELD, System.currentTimeMillis());
      StackSupport.send(producer, topics, plain);

      await().atMost(Duration.ofSeconds(60)).until(() -> !posts.isEmpty());
      Post first = posts.get(0);
      assertThat(first.signature())
          .isEqualTo("sha256=" + hmac(SECRET, first.delivery(), first.timestamp(), first.body()));
      JsonNode alert = first.json();
      assertThat(alert.get("rule").asText()).isEqualTo("wait-timeout");
      assertThat(alert.get("key").asText()).isEqualTo(HELD);
      assertThat(alert.get("kind").asText()).isEqualTo("first");
      assertThat(alert.get("summary").asText())
          .contains(HELD)
          .containsAnyOf(ids.toArray(String[]::new));

      // Every task timed out once, counted in the metric and noted on the task; none started.
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(StackSupport.get(port, "/prometheus", VIEWER).body().lines())
                      .anyMatch(
                          l ->
                              l.startsWith(
                                      "tasklane_scheduler_wait_timeouts_total{handler=\"" + HELD)
                                  && l.endsWith(" 3.0")));
      for (String id : ids) {
        JsonNode task =
            WireCodec.readTree(StackSupport.get(port, "/api/tasks/" + id, VIEWER).body());
        assertThat(task.get("state").asText()).isEqualTo("PENDING");
        assertThat(task.get("waitTimedOutAt").asLong()).isPositive();
      }
      JsonNode p =
          WireCodec.readTree(StackSupport.get(port, "/api/tasks/" + plain.id(), VIEWER).body());
      assertThat(p.has("waitTimedOutAt")).isFalse();
      // One group: the first post now, the two others in the summary when the window closes.
      assertThat(posts).hasSize(1);
      HttpResponse<String> alerts = StackSupport.get(port, "/api/alerts", VIEWER);
      JsonNode group = WireCodec.readTree(alerts.body()).get("alerts").get(0);
      assertThat(group.get("rule").asText()).isEqualTo("wait-timeout");
      assertThat(group.get("count").asLong()).isEqualTo(3);
    } finally {
      receiver.stop(0);
    }
  }

  private Map<String, Object> config(LocalStack stack, Topics topics, HttpServer receiver) {
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.server.port", -1);
    p.put("tasklane.scheduler.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.scheduler.namespace", topics.namespace());
    p.put("tasklane.scheduler.partitions", 2);
    p.put("tasklane.scheduler.state-dir", stateDir.toString());
    p.put("tasklane.scheduler.topic-refresh-interval", "500ms");
    p.put(
        "tasklane.scheduler.api.tokens",
        "viewer-bob:" + VIEWER + ":viewer,root:" + ADMIN + ":" + StackSupport.topRole());
    p.put(
        "tasklane.scheduler.alerts.webhook.url",
        "http://localhost:" + receiver.getAddress().getPort() + "/hook");
    p.put("tasklane.scheduler.alerts.webhook.allow-http", "true");
    p.put("tasklane.scheduler.alerts.webhook.secret", SECRET);
    p.put("tasklane.scheduler.alerts.group-window", "60s");
    return p;
  }

  /** What a receiver computes: HMAC-SHA256 of the raw body with the shared secret, in hex. */
  /** The HMAC over {@code <delivery-id>.<timestamp>.<body>}, as docs/operations.md says. */
  private static String hmac(String secret, String delivery, String timestamp, byte[] body)
      throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    mac.update((delivery + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(mac.doFinal(body));
  }
}
