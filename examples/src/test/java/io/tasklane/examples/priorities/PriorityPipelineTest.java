package io.tasklane.examples.priorities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.examples.orders.DemoSchema;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
 * Priorities through the whole pipeline, with relay and scheduler as separate JVMs on the real
 * MariaDB and Kafka: a backlog of low-priority tasks is enqueued through the outbox and a saturated
 * handler works through it; high-priority tasks enqueued later carry their priority through the
 * outbox row, the relay and the dispatch, and start ahead of the backlog still waiting, not after
 * it.
 */
@TasklaneStack
class PriorityPipelineTest {
  static final String HANDLER = "report.render";
  static final int BACKLOG = 600;
  static final int URGENT = 10;

  /**
   * A worker stand-in: two threads run each dispatch for 20 ms and answer it; the order in which
   * the tasks started is kept.
   */
  static final class OrderWorker implements AutoCloseable {
    final List<Dispatch> started = new CopyOnWriteArrayList<>();
    final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean polling = new AtomicBoolean(true);
    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final Thread thread;

    OrderWorker(String bootstrap, Topics topics) {
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
                try (producer;
                    consumer) {
                  while (polling.get()) {
                    List<java.util.concurrent.Future<?>> batch = new ArrayList<>();
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                      Dispatch d = WireCodec.decodeDispatch(r.value());
                      batch.add(pool.submit(() -> run(d, producer, topics)));
                    }
                    for (var f : batch) {
                      f.get();
                    }
                  }
                } catch (Exception e) {
                  polling.set(false);
                }
              },
              "order-worker");
      thread.start();
    }

    private void run(Dispatch d, KafkaProducer<String, byte[]> producer, Topics topics) {
      if (seen.add(d.id())) {
        started.add(d);
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      long t = System.currentTimeMillis();
      TaskResult result = TaskResult.succeeded(d.id(), d.attempt(), t, t, "order-worker");
      producer.send(
          new ProducerRecord<>(
              topics.results(), d.routingKey(), WireCodec.encode(result.answering(d))));
    }

    @Override
    public void close() throws InterruptedException {
      polling.set(false);
      thread.join(10_000);
      pool.shutdownNow();
      pool.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void urgentTasksEnqueuedBehindABacklogStartAheadOfIt(LocalStack stack) throws Exception {
    String run = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    String ns = "prio" + run;
    Topics topics = new Topics(ns);
    String url = stack.createDatabase("tasklane_prio_" + run);
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      DemoSchema.create(c);
    }
    stack.createTopic(topics.handler(HANDLER), 6);
    Path home = Path.of("").toAbsolutePath().getParent();
    var apps =
        TasklaneApps.builder()
            .home(home)
            .runDir(home.resolve("examples/target/priorities-" + run))
            .stack(stack, url)
            .namespace(ns)
            .schedulerSettings(Map.of("max-dispatched", "3"))
            .build();
    List<JavaProcess> processes = new ArrayList<>();
    try (OrderWorker worker = new OrderWorker(stack.bootstrapServers(), topics)) {
      processes.add(apps.relay("relay").start());
      processes.add(apps.scheduler("scheduler", FreePorts.next()).start());
      enqueue(url, stack, "low", BACKLOG, 0);
      await()
          .atMost(Duration.ofMinutes(2))
          .failFast("an app died", () -> assertThat(processes).allMatch(JavaProcess::isAlive))
          .untilAsserted(() -> assertThat(worker.started).hasSizeGreaterThan(50));
      enqueue(url, stack, "urgent", URGENT, 9);
      await()
          .atMost(Duration.ofMinutes(2))
          .failFast("an app died", () -> assertThat(processes).allMatch(JavaProcess::isAlive))
          .untilAsserted(() -> assertThat(worker.started).hasSize(BACKLOG + URGENT));

      List<Dispatch> order = worker.started;
      int lastUrgent = 0;
      for (int i = 0; i < order.size(); i++) {
        Dispatch d = order.get(i);
        if (d.task().key().startsWith("urgent")) {
          assertThat(d.task().options().priority()).isEqualTo(9);
          lastUrgent = i;
        } else {
          assertThat(d.task().options().priority()).isZero();
        }
      }
      assertThat(order.size() - 1 - lastUrgent)
          .as("backlog tasks that started after the last urgent one (none in arrival order)")
          .isGreaterThan(BACKLOG / 2);
    } finally {
      for (int i = processes.size() - 1; i >= 0; i--) {
        processes.get(i).close();
      }
    }
  }

  private static void enqueue(String url, LocalStack stack, String prefix, int n, int priority)
      throws Exception {
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      c.setAutoCommit(false);
      for (int i = 0; i < n; i++) {
        JdbcTaskOutbox.of(c)
            .enqueue(
                TaskRequest.to(HANDLER)
                    .payload(Map.of("n", i))
                    .key(prefix + "-" + i)
                    .priority(priority));
      }
      c.commit();
    }
  }
}
