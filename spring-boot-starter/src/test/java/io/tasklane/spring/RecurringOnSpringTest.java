package io.tasklane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.WireCodec;
import io.tasklane.spring.recurringapp.RecurringApp;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code @Recurring} on Spring handler beans, on the shared stack: starting the application
 * publishes the schedules of a class handler and of a method handler (on a bean Spring proxies) to
 * {@code <ns>.tasks}, keyed by name, with the annotation's values, before the context is up.
 */
@TasklaneStack
class RecurringOnSpringTest {

  @Test
  void theSchedulesOfSpringHandlerBeansArePublishedAtStart(LocalStack stack) throws Exception {
    TestDatabases db = new TestDatabases(stack);
    try (KafkaFixture kafka = new KafkaFixture(stack, List.of("report.build", "orders.sweep"))) {
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
        TopicAdmin.ensure(admin, List.of(TopicAdmin.Spec.of(kafka.topics.tasks(), 1)));
      }
      List<String> props = new ArrayList<>(List.of(kafka.workerProperties()));
      props.add("tasklane.worker.recurring.app=billing");
      props.add("tasklane.worker.recurring.build=1");
      try (ConfigurableApplicationContext ctx =
          db.run(RecurringApp.class, props.toArray(String[]::new))) {
        Map<String, ScheduleDefinition> published =
            read(stack.bootstrapServers(), kafka.topics.tasks(), 2);

        assertThat(published).containsOnlyKeys("reports.nightly", "orders.sweep.every");
        ScheduleDefinition nightly = published.get("reports.nightly");
        assertThat(nightly.handler()).isEqualTo("report.build");
        assertThat(nightly.cron()).isEqualTo("30 2 * * *");
        assertThat(nightly.zone()).isEqualTo("Europe/Berlin");
        assertThat(nightly.payload().toString()).isEqualTo("{\"report\":\"sales\"}");
        assertThat(nightly.maxAttempts()).isEqualTo(3);
        assertThat(nightly.timeoutMs()).isEqualTo(600_000L);
        ScheduleDefinition sweep = published.get("orders.sweep.every");
        assertThat(sweep.handler()).isEqualTo("orders.sweep");
        assertThat(sweep.every()).isEqualTo("30s");
        assertThat(sweep.version()).isPositive();
      }
    }
  }

  /** The schedule definitions on {@code topic}, read from the beginning until {@code n} appear. */
  private static Map<String, ScheduleDefinition> read(String bootstrap, String topic, int n) {
    Map<String, ScheduleDefinition> seen = new ConcurrentHashMap<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      List<TopicPartition> parts = List.of(new TopicPartition(topic, 0));
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                consumer
                    .poll(Duration.ofMillis(200))
                    .forEach(
                        r -> {
                          TaskTopicRecord record = WireCodec.decodeTaskRecord(r.value());
                          if (record instanceof ScheduleDefinition d) {
                            assertThat(d.name())
                                .isEqualTo(new String(r.key(), StandardCharsets.UTF_8));
                            seen.put(d.name(), d);
                          }
                        });
                return seen.size() >= n;
              });
    }
    return seen;
  }
}
