package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
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
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reports and the dead alert on the real stack: 1,000 tasks timing out DEAD make one grouped,
 * signed webhook post plus one summary received by a local HTTP receiver; a handler's successes and
 * deaths show in its minute and hour report buckets; bad parameters answer 400.
 */
@TasklaneStack
class ReportsAndAlertsTest {
  static final String DYING = "alert.dying";
  static final String MIXED = "report.mixed";
  static final String SECRET = Tokens.random();

  @TempDir Path stateDir;

  /** One POST the receiver got. */
  record Post(byte[] body, String signature, String timestamp, String delivery) {}

  @Test
  void deathsMakeOneSignedGroupedAlertAndReportsCountTransitions(LocalStack stack)
      throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(
        stack.bootstrapServers(), Map.of(topics.handler(DYING), 1, topics.handler(MIXED), 1));
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
    long started = System.currentTimeMillis();
    try (EmbeddedServer server =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, receiver));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers());
        FakeWorker worker =
            new FakeWorker(
                stack.bootstrapServers(),
                topics,
                MIXED,
                (d, now) ->
                    d.task().payload().path("die").asBoolean()
                        ? TaskResult.failed(
                            d.id(),
                            d.attempt(),
                            Outcome.PERMANENT_FAILURE,
                            new ErrorInfo("boom", "boom", null),
                            null,
                            now,
                            now,
                            "fake")
                        : TaskResult.succeeded(d.id(), d.attempt(), now, now, "fake"))) {
      int port = server.getPort();
      // 1,000 tasks of a handler nobody consumes: each times out after 1 s and goes DEAD.
      for (int i = 0; i < 1_000; i++) {
        TaskEnvelope t = task(DYING, "{}", 1, 1_000);
        producer.send(new ProducerRecord<>(topics.tasks(), t.routingKey(), WireCodec.encode(t)));
      }
      for (int i = 0; i < 37; i++) {
        // A long timeout: a worker slow to join its group must not turn successes into deaths.
        TaskEnvelope t = task(MIXED, i < 7 ? "{\"die\":true}" : "{}", 3, 120_000);
        producer.send(new ProducerRecord<>(topics.tasks(), t.routingKey(), WireCodec.encode(t)));
      }
      producer.flush();

      // The relay view while the admissions are recent (its recent figures cover the last 30 to
      // 60 s, so they are read before the alert waits below, which can take longer than that).
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                JsonNode relay = body(StackSupport.get(port, "/api/relay", VIEWER));
                assertThat(relay.get("status").asText()).as(relay.toString()).isEqualTo("flowing");
                assertThat(relay.get("lastAdmittedAt").asLong()).isGreaterThanOrEqualTo(started);
                assertThat(relay.get("recent").get("tasks").asLong()).isPositive();
                assertThat(relay.get("recent").get("lagP99Ms").isNumber())
                    .as(relay.toString())
                    .isTrue();
                assertThat(relay.get("partial").asBoolean()).isFalse();
              });

      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () ->
                  assertThat(
                          of(posts, DYING).stream()
                              .mapToLong(p -> json(p).get("count").asLong())
                              .sum())
                      .isEqualTo(1_000));
      List<Post> dyingPosts = of(posts, DYING);
      assertThat(dyingPosts).hasSizeLessThanOrEqualTo(2);
      assertThat(json(dyingPosts.get(0)).get("kind").asText()).isEqualTo("first");
      for (Post p : posts) {
        assertThat(p.signature())
            .isEqualTo("sha256=" + hmac(SECRET, p.delivery(), p.timestamp(), p.body()));
        assertThat(p.timestamp()).isEqualTo(json(p).get("sentAt").asText());
        assertThat(json(p).get("rule").asText()).isEqualTo("dead");
      }
      // The 7 deaths of the other handler are a group of their own.
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(
                          of(posts, MIXED).stream()
                              .mapToLong(p -> json(p).get("count").asLong())
                              .sum())
                      .isEqualTo(7));
      JsonNode alerts = body(StackSupport.get(port, "/api/alerts", VIEWER));
      JsonNode dyingGroup = null;
      for (JsonNode a : alerts.get("alerts")) {
        if (a.get("key").asText().equals(DYING)) {
          dyingGroup = a;
        }
      }
      assertThat(dyingGroup).as(alerts.toString()).isNotNull();
      assertThat(dyingGroup.get("count").asLong()).isEqualTo(1_000);
      assertThat(dyingGroup.get("sent").asBoolean()).isTrue();
      assertThat(StackSupport.get(port, "/prometheus", VIEWER).body().lines())
          .anyMatch(
              l ->
                  l.startsWith("tasklane_scheduler_alerts_total{rule=\"dead\"")
                      && l.endsWith(" 1007.0"));

      String since = String.valueOf(started - 120_000);
      for (String bucket : List.of("minute", "hour")) {
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> {
                  JsonNode r = report(port, MIXED, bucket, since);
                  assertThat(sum(r, "succeeded")).isEqualTo(30);
                  assertThat(sum(r, "dead")).isEqualTo(7);
                  assertThat(sum(r, "failed")).isEqualTo(7);
                  assertThat(r.get("partial").asBoolean()).isFalse();
                  JsonNode last = r.get("points").get(r.get("points").size() - 1);
                  assertThat(last.get("runTimeMs").get("p50").isNumber()).isTrue();
                  assertThat(last.get("latenessMs").get("max").isNumber()).isTrue();
                });
      }
      JsonNode dying = report(port, DYING, "hour", since);
      assertThat(sum(dying, "dead")).isEqualTo(1_000);
      assertThat(sum(dying, "failed")).isEqualTo(1_000);

      assertBad(port, "/api/reports?bucket=hour", "handler: is required");
      assertBad(port, "/api/reports?handler=Bad%20Name", "handler: 'Bad Name' is invalid");
      assertBad(port, "/api/reports?handler=a&bucket=week", "bucket: 'week' must be minute");
      assertBad(port, "/api/reports?handler=a&since=yesterday", "since: 'yesterday' is neither");
      assertBad(port, "/api/reports?handler=a&since=2000&until=1000", "must be before until");
      assertBad(
          port,
          "/api/reports?handler=a&bucket=minute&since=0&until=172800000",
          "until - since may be at most PT24H with bucket=minute");
      assertBad(port, "/api/alerts?limit=0", "limit: '0' must be a number from 1 to 200");
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
    p.put("tasklane.scheduler.timeout-grace", "0s");
    p.put("tasklane.scheduler.api.tokens", "viewer-bob:" + VIEWER + ":viewer");
    p.put(
        "tasklane.scheduler.alerts.webhook.url",
        "http://localhost:" + receiver.getAddress().getPort() + "/hook");
    p.put("tasklane.scheduler.alerts.webhook.allow-http", "true");
    p.put("tasklane.scheduler.alerts.webhook.secret", SECRET);
    p.put("tasklane.scheduler.alerts.dead", "*");
    p.put("tasklane.scheduler.alerts.group-window", "30s");
    return p;
  }

  private static TaskEnvelope task(
      String handler, String payload, int maxAttempts, long timeoutMs) {
    return TaskEnvelope.builder()
        .id(UUID.randomUUID().toString())
        .handler(handler)
        .payload(WireCodec.readTree(payload))
        .dueAt(System.currentTimeMillis())
        .maxAttempts(maxAttempts)
        .timeoutMs(timeoutMs)
        .createdAt(System.currentTimeMillis())
        .build();
  }

  private static JsonNode report(int port, String handler, String bucket, String since)
      throws Exception {
    HttpResponse<String> r =
        StackSupport.get(
            port,
            "/api/reports?handler=" + handler + "&bucket=" + bucket + "&since=" + since,
            VIEWER);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return WireCodec.readTree(r.body());
  }

  private static long sum(JsonNode report, String field) {
    long n = 0;
    for (JsonNode p : report.get("points")) {
      n += p.get(field).asLong();
    }
    return n;
  }

  private static void assertBad(int port, String path, String message) throws Exception {
    HttpResponse<String> r = StackSupport.get(port, path, VIEWER);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    JsonNode b = WireCodec.readTree(r.body());
    assertThat(b.get("error").asText()).isEqualTo("invalid-parameter");
    assertThat(b.get("message").asText()).contains(message);
  }

  private static JsonNode body(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return WireCodec.readTree(r.body());
  }

  private static List<Post> of(List<Post> posts, String key) {
    return posts.stream().filter(p -> json(p).get("key").asText().equals(key)).toList();
  }

  private static JsonNode json(Post p) {
    return WireCodec.readTree(new String(p.body(), StandardCharsets.UTF_8));
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
