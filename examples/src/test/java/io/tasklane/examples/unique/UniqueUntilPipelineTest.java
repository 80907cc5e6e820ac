package io.tasklane.examples.unique;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.UniqueUntil;
import io.tasklane.core.WireCodec;
import io.tasklane.examples.orders.DemoSchema;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.outbox.EnqueueResult;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * A unique window that ends with its task, through the whole pipeline (relay and scheduler as
 * separate JVMs on the real MariaDB and Kafka): while the task runs, enqueuing its key again
 * returns the running task; once it succeeded, the scheduler's release reaches the relay, which
 * frees the window, and the next enqueue of the key creates a new task, well within the window's
 * hour. A window without an end stays held after its task succeeded.
 */
@TasklaneStack
class UniqueUntilPipelineTest {
  static final String HANDLER = "order.remind";

  /** A worker stand-in: keeps the dispatches, and answers them SUCCEEDED once let go. */
  static final class HeldWorker implements AutoCloseable {
    final List<Dispatch> received = new CopyOnWriteArrayList<>();
    final AtomicBoolean answer = new AtomicBoolean();
    private final AtomicBoolean polling = new AtomicBoolean(true);
    private final Thread thread;

    HeldWorker(String bootstrap, Topics topics) {
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
      consumer.subscribe(List.of(topics.handler(HANDLER)));
      thread =
          new Thread(
              () -> {
                List<Dispatch> held = new ArrayList<>();
                try (producer;
                    consumer) {
                  while (polling.get()) {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                      Dispatch d = WireCodec.decodeDispatch(r.value());
                      received.add(d);
                      held.add(d);
                    }
                    if (answer.get()) {
                      for (Dispatch d : held) {
                        long t = System.currentTimeMillis();
                        TaskResult ok = TaskResult.succeeded(d.id(), d.attempt(), t, t, "held");
                        producer.send(
                            new ProducerRecord<>(
                                topics.results(),
                                d.routingKey(),
                                WireCodec.encode(ok.answering(d))));
                      }
                      held.clear();
                    }
                  }
                }
              },
              "held-worker");
      thread.start();
    }

    @Override
    public void close() throws InterruptedException {
      polling.set(false);
      thread.join(10_000);
    }
  }

  @Test
  void theKeyIsFreeAgainOnceItsTaskSucceeded(LocalStack stack) throws Exception {
    String run = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    String ns = "uniq" + run;
    Topics topics = new Topics(ns);
    String url = stack.createDatabase("tasklane_uniq_" + run);
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      DemoSchema.create(c);
    }
    stack.createTopic(topics.handler(HANDLER), 3);
    Path home = Path.of("").toAbsolutePath().getParent();
    var apps =
        TasklaneApps.builder()
            .home(home)
            .runDir(home.resolve("examples/target/unique-" + run))
            .stack(stack, url)
            .namespace(ns)
            .build();
    List<JavaProcess> processes = new ArrayList<>();
    try (HeldWorker worker = new HeldWorker(stack.bootstrapServers(), topics)) {
      processes.add(apps.relay("relay").start());
      processes.add(apps.scheduler("scheduler", FreePorts.next()).start());
      EnqueueResult first = enqueue(url, stack, "order-1", UniqueUntil.END);
      EnqueueResult plain = enqueue(url, stack, "order-2", null);
      await()
          .atMost(Duration.ofMinutes(2))
          .failFast("an app died", () -> assertThat(processes).allMatch(JavaProcess::isAlive))
          .untilAsserted(() -> assertThat(worker.received).hasSize(2));
      assertThat(worker.received)
          .filteredOn(d -> d.id().equals(first.taskId()))
          .singleElement()
          .satisfies(d -> assertThat(d.task().options().uniqueUntil()).isEqualTo("end"));

      EnqueueResult whileRunning = enqueue(url, stack, "order-1", UniqueUntil.END);
      assertThat(whileRunning.duplicate()).as("while its task runs").isTrue();
      assertThat(whileRunning.taskId()).isEqualTo(first.taskId());

      worker.answer.set(true);
      await()
          .atMost(Duration.ofMinutes(1))
          .failFast("an app died", () -> assertThat(processes).allMatch(JavaProcess::isAlive))
          .untilAsserted(() -> assertThat(window(url, stack, "order-1")).isNull());
      EnqueueResult after = enqueue(url, stack, "order-1", UniqueUntil.END);
      assertThat(after.duplicate()).as("after its task succeeded").isFalse();
      assertThat(after.taskId()).isNotEqualTo(first.taskId());
      assertThat(window(url, stack, "order-1")).isEqualTo(after.taskId());

      assertThat(window(url, stack, "order-2"))
          .as("a window without an end outlives its task")
          .isEqualTo(plain.taskId());
      assertThat(enqueue(url, stack, "order-2", null).duplicate()).isTrue();
    } finally {
      for (int i = processes.size() - 1; i >= 0; i--) {
        processes.get(i).close();
      }
    }
  }

  private static EnqueueResult enqueue(String url, LocalStack stack, String key, UniqueUntil until)
      throws Exception {
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      c.setAutoCommit(false);
      EnqueueResult r =
          JdbcTaskOutbox.of(c)
              .enqueueWithResult(
                  TaskRequest.to(HANDLER)
                      .payload(Map.of("order", key))
                      .key(key)
                      .unique(Duration.ofHours(1), until));
      c.commit();
      return r;
    }
  }

  /** The task holding {@code key}'s window, or null when its row is gone. */
  private static String window(String url, LocalStack stack, String key) throws Exception {
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password());
        PreparedStatement ps =
            c.prepareStatement("SELECT task_id FROM tasklane_unique WHERE key_id = ?")) {
      ps.setString(1, TaskIds.forKey(HANDLER, key));
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }
}
