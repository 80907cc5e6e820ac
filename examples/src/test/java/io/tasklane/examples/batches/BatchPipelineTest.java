package io.tasklane.examples.batches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.BatchCounts;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.examples.orders.DemoSchema;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.TaskBatch;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Batches through the whole pipeline (relay and scheduler as separate JVMs on the real MariaDB and
 * Kafka): members are added through the outbox in several transactions and the batch is sealed with
 * callbacks; the scheduler is killed with kill -9 while the members run and started again. A batch
 * whose members all succeed makes its onSuccess and its onComplete task once each; a batch with a
 * DEAD member makes its onComplete only; each callback carries the members' counts, and the API
 * shows each batch's state.
 */
@TasklaneStack
class BatchPipelineTest {
  static final String MEMBER = "invoice.render";
  static final String REPORT = "report.email";

  /** A worker stand-in: answers members (DEAD for payload "fail"), keeps the callbacks it ran. */
  static final class Worker implements AutoCloseable {
    final List<Dispatch> callbacks = new CopyOnWriteArrayList<>();
    final AtomicBoolean answering = new AtomicBoolean(true);
    private final AtomicBoolean polling = new AtomicBoolean(true);
    private final Thread thread;

    Worker(String bootstrap, Topics topics) {
      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      c.put(ConsumerConfig.GROUP_ID_CONFIG, topics.namespace() + "-worker");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      KafkaConsumer<String, byte[]> consumer =
          new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
      KafkaProducer<String, byte[]> producer =
          new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
      consumer.subscribe(List.of(topics.handler(MEMBER), topics.handler(REPORT)));
      thread =
          new Thread(
              () -> {
                try (producer;
                    consumer) {
                  while (polling.get()) {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                      Dispatch d = WireCodec.decodeDispatch(r.value());
                      if (d.task().handler().equals(REPORT)) {
                        callbacks.add(d);
                      }
                      long t = System.currentTimeMillis();
                      TaskResult result =
                          "\"fail\"".equals(String.valueOf(d.task().payload()))
                              ? TaskResult.failed(
                                  d.id(),
                                  d.attempt(),
                                  Outcome.PERMANENT_FAILURE,
                                  null,
                                  null,
                                  t,
                                  t,
                                  "w")
                              : TaskResult.succeeded(d.id(), d.attempt(), t, t, "w");
                      producer.send(
                          new ProducerRecord<>(
                              topics.results(),
                              d.routingKey(),
                              WireCodec.encode(result.answering(d))));
                    }
                  }
                }
              },
              "batch-worker");
      thread.start();
    }

    @Override
    public void close() throws InterruptedException {
      polling.set(false);
      thread.join(10_000);
    }
  }

  @Test
  void eachCallbackIsMadeOnceWithTheCountsThroughAKillOfTheScheduler(LocalStack stack)
      throws Exception {
    String run = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    String ns = "batch" + run;
    Topics topics = new Topics(ns);
    String url = stack.createDatabase("tasklane_batch_" + run);
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      DemoSchema.create(c);
    }
    stack.createTopic(topics.handler(MEMBER), 3);
    stack.createTopic(topics.handler(REPORT), 3);
    Path home = Path.of("").toAbsolutePath().getParent();
    var apps =
        TasklaneApps.builder()
            .home(home)
            .runDir(home.resolve("examples/target/batches-" + run))
            .stack(stack, url)
            .namespace(ns)
            .build();
    int port = FreePorts.next();
    List<JavaProcess> processes = new ArrayList<>();
    try (Worker worker = new Worker(stack.bootstrapServers(), topics)) {
      processes.add(apps.relay("relay").start());
      JavaProcess scheduler = apps.scheduler("scheduler", port).start();
      processes.add(scheduler);
      String good = "invoices-" + run;
      String mixed = "reminders-" + run;
      for (int part = 0; part < 3; part++) {
        enqueue(url, stack, good, 100, false);
        enqueue(url, stack, mixed, 50, part == 1);
      }
      JsonNode early =
          await()
              .atMost(Duration.ofMinutes(2))
              .until(() -> batch(port, good), b -> b != null && b.path("total").asLong() == 300);
      assertThat(early.path("state").asText()).isEqualTo("OPEN");

      scheduler.kill9();
      seal(url, stack, good);
      seal(url, stack, mixed);
      scheduler = apps.scheduler("scheduler", port).start();
      processes.add(scheduler);

      await()
          .atMost(Duration.ofMinutes(3))
          .failFast("an app died", () -> assertThat(processes.get(0).isAlive()).isTrue())
          .untilAsserted(() -> assertThat(events(worker)).hasSize(3));
      // Each callback task is one task, whatever was resent around the kill.
      assertThat(events(worker))
          .containsExactlyInAnyOrder(
              good + ":success:total=300,succeeded=300,dead=0,cancelled=0",
              good + ":complete:total=300,succeeded=300,dead=0,cancelled=0",
              mixed + ":complete:total=150,succeeded=149,dead=1,cancelled=0");
      Dispatch cb = worker.callbacks.get(0);
      assertThat(BatchCounts.from(cb.task().headers())).isPresent();
      assertThat(cb.task().payload().asText()).startsWith("report-");

      assertThat(batch(port, good).path("state").asText()).isEqualTo("SUCCEEDED");
      JsonNode m = batch(port, mixed);
      assertThat(m.path("state").asText()).isEqualTo("COMPLETE");
      assertThat(m.path("progress").asInt()).isEqualTo(100);
      assertThat(m.path("successTask").isNull()).isTrue();

      // the list: both batches in id order, a page at a time, and by state
      String first = good.compareTo(mixed) < 0 ? good : mixed;
      String second = first.equals(good) ? mixed : good;
      JsonNode page = get(port, "/api/batches?limit=1");
      assertThat(page.path("batches").findValuesAsText("id")).containsExactly(first);
      assertThat(page.path("nextCursor").asText()).isEqualTo(first);
      JsonNode rest = get(port, "/api/batches?limit=1&cursor=" + first);
      assertThat(rest.path("batches").findValuesAsText("id")).containsExactly(second);
      assertThat(rest.path("nextCursor").isNull()).isTrue();
      JsonNode complete = get(port, "/api/batches?state=COMPLETE");
      assertThat(complete.path("batches").findValuesAsText("id")).containsExactly(mixed);
      assertThat(complete.path("partial").asBoolean()).isFalse();
    } finally {
      for (int i = processes.size() - 1; i >= 0; i--) {
        processes.get(i).close();
      }
    }
  }

  /** Distinct callback tasks received: {@code batch:event:counts}. */
  private static List<String> events(Worker worker) {
    return worker.callbacks.stream()
        .collect(
            java.util.stream.Collectors.toMap(
                d -> d.id(),
                d ->
                    d.task().headers().get(ReservedHeaders.BATCH_CALLBACK)
                        + ":"
                        + d.task().headers().get(ReservedHeaders.BATCH_EVENT)
                        + ":"
                        + d.task().headers().get(ReservedHeaders.BATCH_COUNTS),
                (a, b) -> a))
        .values()
        .stream()
        .toList();
  }

  private static void enqueue(String url, LocalStack stack, String batch, int n, boolean oneFails)
      throws Exception {
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      c.setAutoCommit(false);
      TaskBatch b = JdbcTaskOutbox.of(c).batch(batch);
      List<TaskRequest> requests = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        requests.add(
            TaskRequest.to(MEMBER).payload(oneFails && i == 0 ? "fail" : "ok-" + i).maxAttempts(1));
      }
      b.enqueueAll(requests);
      c.commit();
    }
  }

  private static void seal(String url, LocalStack stack, String batch) throws Exception {
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      c.setAutoCommit(false);
      JdbcTaskOutbox.of(c)
          .batch(batch)
          .seal(
              TaskRequest.to(REPORT).payload("report-" + batch),
              TaskRequest.to(REPORT).payload("report-" + batch));
      c.commit();
    }
  }

  /**
   * {@code GET /api/batches/{id}}, or null while it answers anything but 200 (or is not up yet).
   */
  private static JsonNode batch(int port, String id) throws Exception {
    return get(port, "/api/batches/" + id);
  }

  /** {@code GET pathAndQuery}, or null while it answers anything but 200 (or is not up yet). */
  private static JsonNode get(int port, String pathAndQuery) throws Exception {
    HttpResponse<String> r;
    try {
      r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                      .header("Authorization", "Bearer " + TasklaneApps.TOKEN)
                      .timeout(Duration.ofSeconds(10))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException e) {
      return null;
    }
    return r.statusCode() == 200 ? WireCodec.readTree(r.body()) : null;
  }
}
