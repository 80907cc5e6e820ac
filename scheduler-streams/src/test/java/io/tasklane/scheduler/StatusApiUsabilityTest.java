package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.OPERATOR;
import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskKey;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What users of the status API meet: keyed lookups, error bodies, readable times, a stop. */
@TasklaneStack
class StatusApiUsabilityTest {
  static final String HANDLER = "api.usability";

  @TempDir Path stateDir;

  private Map<String, Object> config(LocalStack stack, Topics topics) {
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.server.port", -1);
    p.put("tasklane.scheduler.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.scheduler.namespace", topics.namespace());
    p.put("tasklane.scheduler.partitions", 2);
    p.put("tasklane.scheduler.state-dir", stateDir.toString());
    p.put("tasklane.scheduler.topic-refresh-interval", "500ms");
    p.put(
        "tasklane.scheduler.api.tokens",
        "viewer-bob:" + VIEWER + ":viewer,ops-alice:" + OPERATOR + ":operator");
    return p;
  }

  private static TaskEnvelope keyed(String key, String payload, long dueAt, long rowId) {
    return TaskEnvelope.builder()
        .id(TaskKey.of(HANDLER, key).taskId())
        .handler(HANDLER)
        .key(key)
        .payload(WireCodec.readTree(payload))
        .dueAt(dueAt)
        .maxAttempts(5)
        .timeoutMs(5_000)
        .createdAt(dueAt - 1_000)
        .source(new Source("tasklane_outbox", rowId))
        .build();
  }

  @Test
  void findsAKeyedTaskByHandlerAndKeyWithIsoTimesAndTheRefusedDuplicate(LocalStack stack)
      throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 1));
    long due = System.currentTimeMillis() + 3_600_000;
    TaskEnvelope first = keyed("invoice-42", "{\"n\":1}", due, 1);
    TaskEnvelope changed = keyed("invoice-42", "{\"n\":2}", due + 60_000, 2);
    try (EmbeddedServer server =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      int port = server.getPort();
      StackSupport.send(producer, topics, first);
      StackSupport.send(producer, topics, changed);
      String path = "/api/tasks?handler=" + HANDLER + "&key=invoice-42";

      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                HttpResponse<String> r = StackSupport.get(port, path, VIEWER);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                assertThat(r.body()).contains("\"duplicatesRefused\":1");
              });
      // an operator: a viewer sees no payload (docs/scheduler-streams.md, Redaction)
      JsonNode view = WireCodec.readTree(StackSupport.get(port, path, OPERATOR).body());
      assertThat(view.path("task").path("id").asText()).isEqualTo(first.id());
      assertThat(view.path("task").path("payload").path("n").asInt()).isEqualTo(1);
      assertThat(view.path("state").asText()).isEqualTo("PENDING");
      assertThat(view.path("dueAt").asLong()).isEqualTo(due);
      assertThat(view.path("dueAtIso").asText()).isEqualTo(Instant.ofEpochMilli(due).toString());
      assertThat(view.path("task").path("createdAtIso").asText())
          .isEqualTo(Instant.ofEpochMilli(due - 1_000).toString());
      JsonNode refused = view.path("lastRefusedDuplicate");
      assertThat(refused.path("createdAt").asLong()).isEqualTo(due + 59_000);
      assertThat(refused.path("createdAtIso").asText())
          .isEqualTo(Instant.ofEpochMilli(due + 59_000).toString());
      assertThat(refused.path("source").path("rowId").asLong()).isEqualTo(2);

      HttpResponse<String> otherKey =
          StackSupport.get(port, "/api/tasks?handler=" + HANDLER + "&key=invoice-43", VIEWER);
      assertThat(otherKey.statusCode()).isEqualTo(404);
      HttpResponse<String> badHandler =
          StackSupport.get(port, "/api/tasks?handler=Bad%20Handler&key=k", VIEWER);
      assertThat(badHandler.statusCode()).isEqualTo(400);
      assertThat(badHandler.body()).contains("handler");
      // Without its handler a key is a search filter: a listing, here of no task.
      HttpResponse<String> keyOnly = StackSupport.get(port, "/api/tasks?key=k", VIEWER);
      assertThat(keyOnly.statusCode()).isEqualTo(200);
      assertThat(keyOnly.body()).contains("\"tasks\":[]");
    }
  }

  @Test
  void unauthorizedAndForbiddenAnswersSayWhatIsMissing(LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    try (EmbeddedServer server =
        ApplicationContext.run(EmbeddedServer.class, config(stack, topics))) {
      int port = server.getPort();
      String path = "/api/tasks/" + java.util.UUID.randomUUID();

      HttpResponse<String> none = StackSupport.get(port, path, null);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("Content-Type"))
          .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
      JsonNode body = WireCodec.readTree(none.body());
      assertThat(body.path("error").asText()).isEqualTo("unauthorized");
      assertThat(body.path("message").asText())
          .startsWith("send Authorization: Bearer <token>")
          .contains("tasklane.scheduler.api.tokens");

      HttpResponse<String> wrong = StackSupport.get(port, path, "wrong-token-0123456789abcdef");
      assertThat(wrong.statusCode()).isEqualTo(401);
      assertThat(WireCodec.readTree(wrong.body()).path("message").asText())
          .contains("not one of tasklane.scheduler.api.tokens")
          .doesNotContain("wrong-token");

      HttpResponse<String> viewer = StackSupport.post(port, path + "/cancel", VIEWER);
      assertThat(viewer.statusCode()).isEqualTo(403);
      JsonNode forbidden = WireCodec.readTree(viewer.body());
      assertThat(forbidden.path("error").asText()).isEqualTo("forbidden");
      assertThat(forbidden.path("message").asText())
          .isEqualTo(
              "POST "
                  + path
                  + "/cancel needs a token with role operator; token 'viewer-bob' has role viewer"
                  + " (it may only read)");
    }
  }

  @Test
  void partitionsAddedToTasksWhileRunningStopTheSchedulerNamingTheTopicAndBothCounts(
      LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    try (EmbeddedServer server =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics));
        Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      int port = server.getPort();
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> assertThat(StackSupport.get(port, "/health", null).body()).contains("\"UP\""));

      admin
          .createPartitions(Map.of(topics.tasks(), NewPartitions.increaseTo(3)))
          .all()
          .get(30, TimeUnit.SECONDS);

      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                HttpResponse<String> health = StackSupport.get(port, "/health", VIEWER);
                assertThat(health.statusCode()).isEqualTo(503);
                assertThat(health.body())
                    .contains("\"DOWN\"")
                    .contains(
                        "topic "
                            + topics.tasks()
                            + " now has 3 partitions, it had 2 when the scheduler started");
              });
    }
  }
}
