package io.tasklane.scheduler.internal.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.Topics;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/** The workers' cache against the real broker: a group's members, and answers that go stale. */
@TasklaneStack
public class WorkerGroupWatcherTest {
  /** A clock the test moves by hand. */
  public static final class HandClock extends Clock {
    volatile long millis = 1_800_000_000_000L;

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis);
    }
  }

  @Test
  void countsTheHandlersGroupMembersAndForgetsAnswersOlderThanMaxAge(LocalStack stack)
      throws Exception {
    Topics topics =
        new Topics("w" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
    String handler = "report.build";
    HandClock clock = new HandClock();
    Map<String, Object> props = Map.of("bootstrap.servers", stack.bootstrapServers());
    try (Admin admin = Admin.create(props)) {
      admin
          .createTopics(List.of(new NewTopic(topics.handler(handler), 3, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
      WorkerGroupWatcher watcher =
          new WorkerGroupWatcher(
              admin, topics, topics.namespace() + "-worker", clock, Duration.ofSeconds(5));
      assertThat(watcher.liveConsumers(handler)).as("not read yet").isEmpty();
      await() // a topic created a moment ago may not be described yet
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                watcher.refresh();
                assertThat(watcher.liveConsumers(handler)).isEqualTo(OptionalInt.of(0));
                assertThat(watcher.partitions(handler)).isEqualTo(OptionalInt.of(3));
              });

      Properties p = new Properties();
      p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
      p.put(ConsumerConfig.GROUP_ID_CONFIG, watcher.group(handler));
      try (KafkaConsumer<String, byte[]> c =
          new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
        c.subscribe(List.of(topics.handler(handler)));
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> {
                  c.poll(Duration.ofMillis(100));
                  watcher.refresh();
                  assertThat(watcher.liveConsumers(handler)).isEqualTo(OptionalInt.of(1));
                });
      }
      clock.millis += 5_001;
      assertThat(watcher.liveConsumers(handler)).as("older than maxAge").isEmpty();
    }
  }
}
