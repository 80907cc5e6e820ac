package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.OPERATOR;
import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskInterrupt;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@TasklaneStack
class StatusApiTest {
  static final String HANDLER = "api.test";

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

  @Test
  void servesTaskStatusToTokensAndCommandsToOperatorsOnly(LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 1));
    try (EmbeddedServer server =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      int port = server.getPort();
      TaskEnvelope task = StackSupport.task(HANDLER, System.currentTimeMillis());
      StackSupport.send(producer, topics, task);
      String path = "/api/tasks/" + task.id();

      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                HttpResponse<String> r = StackSupport.get(port, path, VIEWER);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                assertThat(r.body()).contains("\"state\":\"DISPATCHED\"");
              });
      assertThat(StackSupport.get(port, path, null).statusCode()).isEqualTo(401);
      assertThat(StackSupport.get(port, path, "wrong-token-0123456789").statusCode())
          .isEqualTo(401);
      // /health: status for everyone, details (Kafka Streams' state, topics) for a token only
      HttpResponse<String> anonymous = StackSupport.get(port, "/health", null);
      assertThat(anonymous.statusCode()).isEqualTo(200);
      assertThat(anonymous.body()).contains("\"status\":\"UP\"").doesNotContain("details");
      HttpResponse<String> detailed = StackSupport.get(port, "/health", VIEWER);
      assertThat(detailed.body()).contains("\"details\"").contains("\"state\":\"RUNNING\"");
      assertThat(StackSupport.get(port, "/health", "wrong-token-0123456789").statusCode())
          .isEqualTo(401);
      assertThat(StackSupport.get(port, "/prometheus", null).statusCode()).isEqualTo(401);
      assertThat(
              StackSupport.get(port, "/api/tasks/" + java.util.UUID.randomUUID(), VIEWER)
                  .statusCode())
          .isEqualTo(404);

      assertThat(StackSupport.post(port, path + "/cancel", VIEWER).statusCode()).isEqualTo(403);
      // The command waits for its effect: applied, with the state after.
      HttpResponse<String> cancelled = StackSupport.post(port, path + "/cancel?wait=20s", OPERATOR);
      assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
      assertThat(WireCodec.readTree(cancelled.body()))
          .isEqualTo(
              WireCodec.readTree(
                  "{\"id\":\""
                      + task.id()
                      + "\",\"action\":\"cancel\",\"outcome\":\"applied\",\"reason\":null,"
                      + "\"state\":\"CANCELLED\"}"));
      assertThat(StackSupport.get(port, path, VIEWER).body()).contains("\"state\":\"CANCELLED\"");
      // It was DISPATCHED: the running attempt was sent an interrupt, keyed by the task id.
      assertThat(StackSupport.readAll(stack.bootstrapServers(), topics.interrupts(), 1))
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.key()).isEqualTo(task.id());
                TaskInterrupt i = WireCodec.decodeInterrupt(r.value());
                assertThat(i.id()).isEqualTo(task.id());
                assertThat(i.attempt()).isEqualTo(1);
                assertThat(i.reason()).isEqualTo("cancelled: api (by ops-alice)");
              });
      // Commands the state makes no-ops are answered ignored, naming why, and not written.
      for (String action : List.of("cancel", "retry-dead", "discard", "trigger")) {
        HttpResponse<String> ignored = StackSupport.post(port, path + "/" + action, OPERATOR);
        assertThat(ignored.statusCode()).as(ignored.body()).isEqualTo(200);
        assertThat(WireCodec.readTree(ignored.body()))
            .isEqualTo(
                WireCodec.readTree(
                    "{\"id\":\""
                        + task.id()
                        + "\",\"action\":\""
                        + action
                        + "\",\"outcome\":\"ignored\",\"reason\":\"already CANCELLED\","
                        + "\"state\":\"CANCELLED\"}"));
      }
      HttpResponse<String> badWait = StackSupport.post(port, path + "/cancel?wait=31s", OPERATOR);
      assertThat(badWait.statusCode()).isEqualTo(400);
      assertThat(badWait.body())
          .contains("\"error\":\"invalid-parameter\"")
          .contains("wait: 31s is outside 0s..30s");

      HttpResponse<String> metrics = StackSupport.get(port, "/prometheus", VIEWER);
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body())
          .contains("tasklane_scheduler_tasks{state=\"CANCELLED\"")
          .contains("tasklane_scheduler_dispatch_lateness_seconds")
          .contains("tasklane_scheduler_due_index_size");
      // The topic watcher created the handler's dead-letter topic.
      try (var admin =
          org.apache.kafka.clients.admin.Admin.create(
              Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers()))) {
        assertThat(admin.listTopics().names().get()).contains(topics.handlerDlt(HANDLER));
      }
    }
  }

  @Test
  void refusesToStartWithoutATokenOrWithMismatchedPartitions(LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    Map<String, Object> noToken = config(stack, topics);
    noToken.remove("tasklane.scheduler.api.tokens");
    assertThatThrownBy(() -> ApplicationContext.run(EmbeddedServer.class, noToken).close())
        .hasStackTraceContaining("tasklane.scheduler.api.tokens");

    StackSupport.createTopics(
        stack.bootstrapServers(),
        Map.of(topics.tasks(), 2, topics.results(), 3, topics.control(), 2));
    assertThatThrownBy(
            () -> ApplicationContext.run(EmbeddedServer.class, config(stack, topics)).close())
        .hasStackTraceContaining("same partition count");

    Map<String, Object> bad = config(stack, StackSupport.uniqueTopics());
    bad.put("tasklane.scheduler.scan-bound", 0);
    assertThatThrownBy(() -> ApplicationContext.run(EmbeddedServer.class, bad).close())
        .hasStackTraceContaining("tasklane.scheduler.scan-bound: 0 is outside 1 to 1000000");
  }
}
