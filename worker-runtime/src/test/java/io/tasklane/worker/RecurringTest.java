package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.TopicReader;
import io.tasklane.worker.support.WorkerFixture;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code @Recurring} on the real stack: a start publishes the definitions to {@code <ns>.tasks}
 * keyed by name; a restart with the same code publishes nothing; a changed definition gets a higher
 * version; one the code lost is disabled (once); an older build publishes nothing.
 */
@TasklaneStack
class RecurringTest {
  static WorkerFixture fx;
  static TopicReader tasks;
  static KafkaProducer<byte[], byte[]> markers;

  /** Version 1 of the app: a class handler and a method handler, each with a schedule. */
  @TaskHandler("report.build")
  @Recurring(
      name = "reports.nightly",
      cron = "30 2 * * *",
      zone = "Europe/Berlin",
      misfire = "FIRE_ONCE",
      payload = "{\"report\":\"sales\"}",
      maxAttempts = 3,
      timeout = "10m")
  @Requires(property = "test.suite", value = "recurring-v1")
  static class BuildReport implements Handler<Map<String, String>> {
    @Override
    public void handle(Map<String, String> payload, TaskContext context) {}
  }

  @Singleton
  @Requires(property = "test.suite", value = "recurring-v1")
  static class Sweeper {
    @TaskHandler("orders.sweep")
    @Recurring(name = "orders.sweep.every", every = "30s", shards = 4)
    public void sweep(Object payload) {}
  }

  /** Version 2: the report's cron changed, the sweeper's schedule is gone from the code. */
  @TaskHandler("report.build")
  @Recurring(
      name = "reports.nightly",
      cron = "45 3 * * *",
      zone = "Europe/Berlin",
      misfire = "FIRE_ONCE",
      payload = "{\"report\":\"sales\"}",
      maxAttempts = 3,
      timeout = "10m")
  @Requires(property = "test.suite", value = "recurring-v2")
  static class BuildReportV2 implements Handler<Map<String, String>> {
    @Override
    public void handle(Map<String, String> payload, TaskContext context) {}
  }

  @BeforeAll
  static void setUp(LocalStack stack) {
    fx = new WorkerFixture(stack, "recurring", List.of());
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
      // One partition: the marker sent after a start is read after everything that start sent.
      TopicAdmin.ensure(admin, List.of(TopicAdmin.Spec.of(fx.topics.tasks(), 1)));
    }
    tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks());
    markers =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()),
            new ByteArraySerializer(),
            new ByteArraySerializer());
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (markers != null) {
      markers.close(Duration.ofSeconds(5));
    }
    if (tasks != null) {
      tasks.close();
    }
    if (fx != null) {
      fx.close();
    }
  }

  /** Starts and stops a worker of app "billing" with the given code version and build. */
  private static void startAndStop(String suite, long build) {
    Map<String, Object> p = new HashMap<>();
    p.put("test.suite", suite);
    p.put("tasklane.worker.recurring.app", "billing");
    p.put("tasklane.worker.recurring.build", build);
    p.put("tasklane.worker.idempotency.enabled", false);
    ApplicationContext ctx = fx.start(p);
    fx.stop(ctx);
  }

  /** The schedule definitions on the tasks topic so far, read up to a fresh marker. */
  private static List<ScheduleDefinition> definitions() throws Exception {
    String marker = "marker-" + UUID.randomUUID();
    markers
        .send(
            new ProducerRecord<>(
                fx.topics.tasks(), marker.getBytes(StandardCharsets.UTF_8), new byte[] {'{', '}'}))
        .get(30, TimeUnit.SECONDS);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> tasks.records().stream().anyMatch(r -> marker.equals(key(r))));
    return tasks.records().stream()
        .filter(r -> !key(r).startsWith("marker-"))
        .map(
            r -> {
              TaskTopicRecord record = WireCodec.decodeTaskRecord(r.value());
              assertThat(((ScheduleDefinition) record).name()).isEqualTo(key(r));
              return (ScheduleDefinition) record;
            })
        .toList();
  }

  private static String key(ConsumerRecord<byte[], byte[]> r) {
    return new String(r.key(), StandardCharsets.UTF_8);
  }

  @Test
  void publishesOnceThenOnlyChangesAndDisablesWhatTheCodeLost() throws Exception {
    long before = System.currentTimeMillis();
    startAndStop("recurring-v1", 0);

    List<ScheduleDefinition> first = definitions();
    assertThat(first)
        .extracting(ScheduleDefinition::name)
        .containsExactlyInAnyOrder("reports.nightly", "orders.sweep.every");
    ScheduleDefinition report = byName(first, "reports.nightly");
    assertThat(report.handler()).isEqualTo("report.build");
    assertThat(report.origin()).isEqualTo("code:billing");
    assertThat(report.version()).isBetween(before, System.currentTimeMillis());
    assertThat(report.cron()).isEqualTo("30 2 * * *");
    assertThat(report.zone()).isEqualTo("Europe/Berlin");
    assertThat(report.misfire()).isEqualTo("FIRE_ONCE");
    assertThat(report.payload()).isEqualTo(WireCodec.readTree("{\"report\":\"sales\"}"));
    assertThat(report.maxAttempts()).isEqualTo(3);
    assertThat(report.timeoutMs()).isEqualTo(600_000);
    ScheduleDefinition sweep = byName(first, "orders.sweep.every");
    assertThat(sweep.handler()).isEqualTo("orders.sweep");
    assertThat(sweep.routing()).isEqualTo(ScheduleDefinition.Routing.BROADCAST);
    assertThat(sweep.shards()).isEqualTo(4);
    assertThat(sweep.enabled()).isTrue();

    // A restart with the identical code publishes nothing.
    startAndStop("recurring-v1", 0);
    assertThat(definitions()).isEqualTo(first);

    // The next deployment: a changed cron gets a higher version; the lost schedule is disabled.
    startAndStop("recurring-v2", 0);
    List<ScheduleDefinition> second = definitions();
    assertThat(second).hasSize(4).startsWith(first.toArray(ScheduleDefinition[]::new));
    List<ScheduleDefinition> added = second.subList(2, 4);
    ScheduleDefinition changed = byName(added, "reports.nightly");
    assertThat(changed.cron()).isEqualTo("45 3 * * *");
    assertThat(changed.version()).isGreaterThan(report.version());
    ScheduleDefinition disabled = byName(added, "orders.sweep.every");
    assertThat(disabled.enabled()).isFalse();
    assertThat(disabled.version()).isGreaterThan(sweep.version());
    assertThat(disabled.toBuilder().enabled(true).version(sweep.version()).build())
        .isEqualTo(sweep);

    // Restarting it changes nothing: the disabled schedule is not disabled again.
    startAndStop("recurring-v2", 0);
    assertThat(definitions()).hasSize(4);

    // A newer build owns the schedules; an older build's start publishes nothing.
    startAndStop("recurring-v1", 7);
    List<ScheduleDefinition> third = definitions();
    assertThat(third).hasSize(6);
    assertThat(byName(third.subList(4, 6), "reports.nightly").cron()).isEqualTo("30 2 * * *");
    startAndStop("recurring-v2", 6);
    assertThat(definitions()).hasSize(6);
  }

  private static ScheduleDefinition byName(List<ScheduleDefinition> list, String name) {
    return list.stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
  }
}
