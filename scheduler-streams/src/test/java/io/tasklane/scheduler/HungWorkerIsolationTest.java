package io.tasklane.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker that holds its partitions but never answers (hung, or killed and not yet timed out of
 * its group) may hold up only the flow-control windows of the scheduler partitions that dispatch to
 * it. The tasks of every other partition must run to the end meanwhile.
 */
@TasklaneStack
class HungWorkerIsolationTest {
  static final String HANDLER = "hung.test";
  static final int TASKS = 400;
  static final int WINDOW = 10;
  static final int PARTITIONS = 4;

  @TempDir Path dir;

  @Test
  void aHungWorkerHoldsUpOnlyThePartitionsItOwns(LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(
        stack.bootstrapServers(), Map.of(topics.handler(HANDLER), PARTITIONS));
    int port = SchedulerProcess.freePort();
    Map<String, String> settings =
        Map.of("max-dispatched", String.valueOf(WINDOW), "timeout-grace", "10m");
    try (JavaProcess scheduler =
            SchedulerProcess.start(stack, topics, dir, "isolation", port, settings);
        HungWorker hung = new HungWorker(stack.bootstrapServers(), topics);
        FakeWorker live = new FakeWorker(stack.bootstrapServers(), topics, HANDLER);
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      SchedulerProcess.awaitUp(scheduler, port);
      await().atMost(Duration.ofSeconds(60)).until(() -> hung.assignment().size() == 2);
      Set<Integer> hungPartitions = hung.assignment();

      List<String> liveIds = new ArrayList<>();
      List<String> hungIds = new ArrayList<>();
      for (int i = 0; i < TASKS; i++) {
        TaskEnvelope t = StackSupport.task(HANDLER, System.currentTimeMillis(), "key-" + i % 97);
        producer.send(new ProducerRecord<>(topics.tasks(), t.routingKey(), WireCodec.encode(t)));
        int p =
            BuiltInPartitioner.partitionForKey(
                t.routingKey().getBytes(StandardCharsets.UTF_8), PARTITIONS);
        (hungPartitions.contains(p) ? hungIds : liveIds).add(t.id());
      }
      producer.flush();

      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(live.seen)
                      .as(scheduler.logTail(30))
                      .containsAll(liveIds)
                      .doesNotContainAnyElementsOf(hungIds));
      // Each of the hung worker's two partitions is fed by one scheduler partition, whose window
      // is full now: exactly one window's worth each, the rest of those tasks wait in the
      // scheduler.
      await().atMost(Duration.ofSeconds(30)).until(() -> hung.received() == 2L * WINDOW);
      assertThat(hungIds).hasSizeGreaterThan(2 * WINDOW);
      assertThat(hung.assignment()).as("no rebalance during the test").isEqualTo(hungPartitions);
      assertThat(hung.received()).isEqualTo(2L * WINDOW);
    }
  }

  /** A group member that takes dispatches and never answers. */
  static final class HungWorker implements AutoCloseable {
    private final AtomicLong received = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private volatile Set<Integer> assignment = Set.of();
    private final Thread thread;

    HungWorker(String bootstrap, Topics topics) {
      Properties p = new Properties();
      p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ConsumerConfig.GROUP_ID_CONFIG, topics.namespace() + "-worker");
      p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      KafkaConsumer<String, byte[]> consumer =
          new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
      consumer.subscribe(List.of(topics.handler(HANDLER)));
      thread =
          new Thread(
              () -> {
                try (consumer) {
                  while (running.get()) {
                    received.addAndGet(consumer.poll(Duration.ofMillis(100)).count());
                    assignment =
                        consumer.assignment().stream()
                            .map(TopicPartition::partition)
                            .collect(Collectors.toUnmodifiableSet());
                  }
                }
              },
              "hung-worker");
      thread.start();
    }

    Set<Integer> assignment() {
      return assignment;
    }

    long received() {
      return received.get();
    }

    @Override
    public void close() throws InterruptedException {
      running.set(false);
      thread.join(10_000);
    }
  }
}
