package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.OPERATOR;
import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dependency protocol through a running scheduler: it travels on {@code <ns>.dependencies},
 * which the scheduler creates co-partitioned with {@code tasks}; a forged {@code dependency-done}
 * on {@code <ns>.control} is dead-lettered and the waiter still runs after its real dependency.
 */
@TasklaneStack
class DependencyPipelineTest {
  static final String HANDLER = "deps.test";

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

  private static String header(ConsumerRecord<String, byte[]> r, String name) {
    var h = r.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  @Test
  void aWaiterRunsAfterItsDependencyAndAForgedAnswerOnControlChangesNothing(LocalStack stack)
      throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    String bootstrap = stack.bootstrapServers();
    StackSupport.createTopics(bootstrap, Map.of(topics.handler(HANDLER), 1));
    try (EmbeddedServer server =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(bootstrap)) {
      int port = server.getPort();
      long now = System.currentTimeMillis();
      TaskEnvelope dep = StackSupport.task(HANDLER, now + TimeUnit.HOURS.toMillis(1));
      TaskEnvelope w =
          StackSupport.task(HANDLER, now).toBuilder().dependsOn(List.of(dep.id())).build();
      StackSupport.send(producer, topics, dep);
      StackSupport.send(producer, topics, w);
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(StackSupport.get(port, "/api/tasks/" + w.id(), VIEWER).body())
                      .contains("\"state\":\"WAITING\""));
      try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", bootstrap))) {
        assertThat(TopicAdmin.partitions(admin, topics.dependencies())).contains(2);
      }

      producer
          .send(
              new ProducerRecord<>(
                  topics.control(),
                  w.routingKey(),
                  WireCodec.encode(
                      ControlCommand.DependencyDone.of(
                          w.id(), dep.id(), TaskState.DEAD, "forged"))))
          .get(10, TimeUnit.SECONDS);
      assertThat(StackSupport.readAll(bootstrap, topics.schedulerDlt(), 1))
          .singleElement()
          .satisfies(r -> assertThat(header(r, "tasklane.reason")).isEqualTo("scheduler-only"));
      assertThat(StackSupport.get(port, "/api/tasks/" + w.id(), VIEWER).body())
          .contains("\"state\":\"WAITING\"");

      try (FakeWorker worker = new FakeWorker(bootstrap, topics, HANDLER)) {
        HttpResponse<String> triggered =
            StackSupport.post(port, "/api/tasks/" + dep.id() + "/trigger", OPERATOR);
        assertThat(triggered.statusCode()).as(triggered.body()).isEqualTo(200);
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(() -> assertThat(worker.seen).contains(dep.id(), w.id()));
      }
      // The await and the answer went over the scheduler's own topic.
      assertThat(StackSupport.readAll(bootstrap, topics.dependencies(), 2))
          .extracting(r -> WireCodec.decodeControl(r.value()).getClass().getSimpleName())
          .contains("Await", "DependencyDone");
    }
  }
}
