package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.OPERATOR;
import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/schedules/{name}} and {@code POST /api/schedules/{name}/trigger} on the real
 * broker, with an {@code ALL_WORKERS} schedule whose handler has two live consumers in the workers'
 * group: the scheduler reads the group with Admin, a manual fire makes one task per consumer, and
 * each consumer receives one (the shards land on distinct partitions).
 */
@TasklaneStack
class ScheduleApiTest {
  static final String HANDLER = "sched.api";

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

  /** A consumer in the workers' group polling on its own thread, keeping what it receives. */
  static final class Worker implements AutoCloseable {
    final List<Dispatch> received = new CopyOnWriteArrayList<>();
    final AtomicBoolean running = new AtomicBoolean(true);
    final AtomicBoolean assigned = new AtomicBoolean();
    final Thread thread;

    Worker(String bootstrap, String group, String topic) {
      Properties p = new Properties();
      p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
      p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      thread =
          new Thread(
              () -> {
                try (KafkaConsumer<String, byte[]> c =
                    new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
                  c.subscribe(List.of(topic));
                  while (running.get()) {
                    c.poll(Duration.ofMillis(200))
                        .forEach(r -> received.add(WireCodec.decodeDispatch(r.value())));
                    assigned.set(!c.assignment().isEmpty());
                  }
                }
              },
              "test-worker");
      thread.start();
    }

    @Override
    public void close() throws InterruptedException {
      running.set(false);
      thread.join(TimeUnit.SECONDS.toMillis(30));
    }
  }

  @Test
  void showsAScheduleAndTriggersAnAllWorkersFireOnePerLiveConsumer(LocalStack stack)
      throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    String bootstrap = stack.bootstrapServers();
    StackSupport.createTopics(bootstrap, Map.of(topics.handler(HANDLER), 2));
    String group = topics.namespace() + "-worker." + HANDLER;
    List<Worker> workers = new ArrayList<>();
    try (EmbeddedServer server =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(bootstrap)) {
      workers.add(new Worker(bootstrap, group, topics.handler(HANDLER)));
      workers.add(new Worker(bootstrap, group, topics.handler(HANDLER)));
      int port = server.getPort();
      ScheduleDefinition d =
          ScheduleDefinition.builder()
              .name("api.nightly")
              .version(1)
              .handler(HANDLER)
              .cron("0 3 * * *")
              .routing(ScheduleDefinition.Routing.ALL_WORKERS)
              .overlap(ScheduleDefinition.Overlap.SKIP_IF_RUNNING)
              .build();
      producer
          .send(new ProducerRecord<>(topics.tasks(), d.name(), WireCodec.encode(d)))
          .get(10, TimeUnit.SECONDS);
      String path = "/api/schedules/api.nightly";

      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                HttpResponse<String> r = StackSupport.get(port, path, VIEWER);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                JsonNode view = WireCodec.readTree(r.body());
                assertThat(view.get("nextFires")).hasSize(5);
                assertThat(view.get("liveWorkers").asInt()).as(r.body()).isEqualTo(2);
              });
      // Both consumers own a partition (a fire during the group's rebalance could go to one).
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> workers.stream().allMatch(w -> w.assigned.get()));
      assertThat(StackSupport.get(port, path, null).statusCode()).isEqualTo(401);
      assertThat(StackSupport.get(port, "/api/schedules/nobody", VIEWER).statusCode())
          .isEqualTo(404);
      assertThat(StackSupport.post(port, path + "/trigger", VIEWER).statusCode()).isEqualTo(403);
      HttpResponse<String> accepted =
          StackSupport.post(port, path + "/trigger?triggerId=ops-1", OPERATOR);
      assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);

      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                JsonNode fire =
                    WireCodec.readTree(StackSupport.get(port, path, VIEWER).body())
                        .get("fires")
                        .get(0);
                assertThat(fire.get("kind").asText()).isEqualTo("TRIGGER");
                assertThat(fire.get("outcome").asText()).isEqualTo("RUNNING");
                assertThat(fire.get("tasks")).hasSize(2);
              });
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                for (Worker w : workers) {
                  assertThat(w.received).as("each live consumer gets one shard").hasSize(1);
                  assertThat(w.received.get(0).task().shard().total()).isEqualTo(2);
                }
              });
      // The shards live on both partitions, the schedule on one: their results reach it as
      // schedule-fire-done records keyed by its name, and the fire ends SUCCEEDED.
      for (Worker w : workers) {
        Dispatch x = w.received.get(0);
        long now = System.currentTimeMillis();
        producer
            .send(
                new ProducerRecord<>(
                    topics.results(),
                    x.routingKey(),
                    WireCodec.encode(
                        TaskResult.succeeded(x.id(), x.attempt(), now, now, "w").answering(x))))
            .get(10, TimeUnit.SECONDS);
      }
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                JsonNode fire =
                    WireCodec.readTree(StackSupport.get(port, path, VIEWER).body())
                        .get("fires")
                        .get(0);
                assertThat(fire.get("outcome").asText()).as(fire.toString()).isEqualTo("SUCCEEDED");
              });
    } finally {
      for (Worker w : workers) {
        w.close();
      }
    }
  }
}
