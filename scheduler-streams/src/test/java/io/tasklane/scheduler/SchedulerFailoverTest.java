package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two scheduler processes share the work; one is killed with SIGKILL in the middle of the load and
 * the other takes over its partitions. Every task must still end SUCCEEDED.
 */
@TasklaneStack
class SchedulerFailoverTest {
  static final String HANDLER = "load.test";
  static final int TASKS = 3_000;

  /** Distinct ordering keys: routing keys other than the task ids. */
  static final int KEYS = 97;

  private static final Map<String, String> GRACE = Map.of("timeout-grace", "1s");

  private final Map<String, String> routingKeys = new ConcurrentHashMap<>();

  @TempDir Path dir;

  /** The status path of task {@code id}: it lives on its routing key's partition. */
  private String status(String id) {
    return "/api/tasks/" + id + "?routingKey=" + routingKeys.get(id);
  }

  private static TaskEnvelope task(int i) {
    long now = System.currentTimeMillis();
    return TaskEnvelope.builder()
        .id(UUID.randomUUID().toString())
        .handler(HANDLER)
        .orderingKey("key-" + i % KEYS)
        .payload(WireCodec.readTree("{\"n\":" + i + "}"))
        .dueAt(now + (i % 20) * 250L)
        .maxAttempts(10)
        .timeoutMs(2_000)
        .backoff(RetryPolicy.fixed(Duration.ofSeconds(1)))
        .createdAt(now)
        .build();
  }

  @Test
  void survivingInstanceTakesOverAndNoTaskIsLostAfterKill9(LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 4));
    int portA = SchedulerProcess.freePort();
    int portB = SchedulerProcess.freePort();
    List<String> ids = new ArrayList<>();
    routingKeys.clear();
    try (JavaProcess a = SchedulerProcess.start(stack, topics, dir, "a", portA, GRACE);
        JavaProcess b = SchedulerProcess.start(stack, topics, dir, "b", portB, GRACE);
        FakeWorker worker = new FakeWorker(stack.bootstrapServers(), topics, HANDLER);
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      SchedulerProcess.awaitUp(a, portA);
      SchedulerProcess.awaitUp(b, portB);
      for (int i = 0; i < TASKS; i++) {
        if (i == TASKS / 2) {
          producer.flush();
          List<String> first = ids.subList(0, 40);
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> worker.seen.size() >= TASKS / 6 && worker.seen.containsAll(first));
          // Status through instance A: keys owned by B are forwarded to B's application.server.
          // Every one of these was dispatched, so each must be found (a rebalance may answer 503
          // for a moment, never 404).
          for (String id : first) {
            await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(
                    () ->
                        assertThat(StackSupport.get(portA, status(id), VIEWER).statusCode())
                            .as(id)
                            .isEqualTo(200));
          }
          a.kill9();
        }
        TaskEnvelope t = task(i);
        ids.add(t.id());
        routingKeys.put(t.id(), t.routingKey());
        producer.send(new ProducerRecord<>(topics.tasks(), t.routingKey(), WireCodec.encode(t)));
      }
      producer.flush();

      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> assertThat(worker.seen).as(b.logTail(30)).hasSize(TASKS).containsAll(ids));
      assertThat(worker.early.get()).as("dispatches before dueAt").isZero();
      // Handler topic and tasks have 4 partitions each: a dispatch goes to its routing key's own
      // partition number, so a dead worker only holds up the windows of the partitions it owns.
      assertThat(worker.partitionOf)
          .hasSize(KEYS)
          .allSatisfy(
              (routingKey, partition) ->
                  assertThat(partition)
                      .as(routingKey)
                      .isEqualTo(
                          BuiltInPartitioner.partitionForKey(
                              routingKey.getBytes(StandardCharsets.UTF_8), 4)));

      Set<String> open = ConcurrentHashMap.newKeySet();
      open.addAll(ids);
      // one pass reads 3,000 statuses over HTTP: on a loaded 2-core machine a pass alone took
      // over a minute, so the bound leaves room for two passes after the last result
      await()
          .atMost(Duration.ofSeconds(180))
          .untilAsserted(
              () -> {
                for (String id : List.copyOf(open)) {
                  String body = StackSupport.get(portB, status(id), VIEWER).body();
                  if (body.contains("\"state\":\"SUCCEEDED\"")) {
                    open.remove(id);
                  }
                }
                assertThat(open).as("tasks not SUCCEEDED").isEmpty();
              });
      assertThat(b.isAlive()).isTrue();
    }
  }
}
