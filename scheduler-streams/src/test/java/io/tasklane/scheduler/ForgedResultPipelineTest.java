package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through a running scheduler on the real broker (plain Kafka, no ACLs: the test writes as a worker
 * principal could, since any worker may write {@code <ns>.results}): a worker of one handler, which
 * reads only its own handler's dispatches, forges results for a task of another handler. They go to
 * {@code <ns>.scheduler.dlt} as {@code result-mismatch}, the task stays DISPATCHED, and the genuine
 * worker's result settles it.
 */
@TasklaneStack
class ForgedResultPipelineTest {
  static final String VICTIM = "forge.victim";
  static final String OWN = "forge.own";

  @TempDir Path stateDir;

  private Map<String, Object> config(LocalStack stack, Topics topics) {
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.server.port", -1);
    p.put("tasklane.scheduler.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.scheduler.namespace", topics.namespace());
    p.put("tasklane.scheduler.partitions", 2);
    p.put("tasklane.scheduler.state-dir", stateDir.toString());
    p.put("tasklane.scheduler.api.tokens", "viewer-bob:" + VIEWER + ":viewer");
    return p;
  }

  private static String header(ConsumerRecord<String, byte[]> r, String name) {
    var h = r.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  private static Dispatch dispatchOf(String bootstrap, String topic, String id) {
    return StackSupport.readAll(bootstrap, topic, 1).stream()
        .map(r -> WireCodec.decodeDispatch(r.value()))
        .filter(d -> d.id().equals(id))
        .findFirst()
        .orElseThrow();
  }

  private static void sendResult(
      KafkaProducer<String, byte[]> producer, Topics topics, String key, TaskResult r)
      throws Exception {
    producer
        .send(new ProducerRecord<>(topics.results(), key, WireCodec.encode(r)))
        .get(10, TimeUnit.SECONDS);
  }

  private static JsonNode task(int port, String id) throws Exception {
    return WireCodec.readTree(StackSupport.get(port, "/api/tasks/" + id, VIEWER).body());
  }

  @Test
  void aWorkerOfAnotherHandlerCannotSettleATaskButItsOwnWorkerCan(LocalStack stack)
      throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    String bootstrap = stack.bootstrapServers();
    StackSupport.createTopics(bootstrap, Map.of(topics.handler(VICTIM), 1, topics.handler(OWN), 1));
    try (EmbeddedServer server =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(bootstrap)) {
      int port = server.getPort();
      long now = System.currentTimeMillis();
      TaskEnvelope victim = StackSupport.task(VICTIM, now).toBuilder().timeoutMs(600_000).build();
      TaskEnvelope own = StackSupport.task(OWN, now).toBuilder().timeoutMs(600_000).build();
      StackSupport.send(producer, topics, victim);
      StackSupport.send(producer, topics, own);
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(task(port, victim.id()).path("state").asText())
                      .isEqualTo("DISPATCHED"));

      Dispatch ownDispatch = dispatchOf(bootstrap, topics.handler(OWN), own.id());

      // The worker of OWN knows the victim's id and attempt (1), not its dispatch's nonce.
      String key = victim.routingKey();
      sendResult(
          producer,
          topics,
          key,
          TaskResult.succeeded(victim.id(), 1, now, now, "w-own").answering(ownDispatch));
      sendResult(
          producer,
          topics,
          key,
          TaskResult.failed(
              victim.id(),
              1,
              Outcome.PERMANENT_FAILURE,
              new ErrorInfo("forged", "forged", null),
              null,
              now,
              now,
              "w-own"));

      List<ConsumerRecord<String, byte[]>> dlt =
          StackSupport.readAll(bootstrap, topics.schedulerDlt(), 2);
      assertThat(dlt).extracting(r -> header(r, "tasklane.reason")).containsOnly("result-mismatch");
      assertThat(dlt)
          .extracting(r -> header(r, "tasklane.mismatch"))
          .containsExactly("nonce,handler", "nonce,handler");
      assertThat(dlt)
          .extracting(r -> header(r, "tasklane.error.message"))
          .allSatisfy(m -> assertThat(m).doesNotContain(ownDispatch.nonce()));
      JsonNode untouched = task(port, victim.id());
      assertThat(untouched.path("state").asText()).isEqualTo("DISPATCHED");
      assertThat(untouched.path("failures").asInt()).isZero();

      Dispatch genuine = dispatchOf(bootstrap, topics.handler(VICTIM), victim.id());
      assertThat(genuine.nonce()).isNotBlank();
      assertThat(untouched.toString()).doesNotContain(genuine.nonce());
      long done = System.currentTimeMillis();
      sendResult(
          producer,
          topics,
          key,
          TaskResult.succeeded(victim.id(), 1, done, done, "w-victim").answering(genuine));
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(task(port, victim.id()).path("state").asText())
                      .isEqualTo("SUCCEEDED"));
    }
  }
}
