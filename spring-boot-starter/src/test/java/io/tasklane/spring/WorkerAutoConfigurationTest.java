package io.tasklane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.MeterRegistry;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.spring.internal.SpringWorker;
import io.tasklane.spring.workerapp.Greeter;
import io.tasklane.spring.workerapp.WorkerApp;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.JdbcIdempotencyStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The auto-configured worker runs Spring handler beans on the shared stack: a dispatch produced to
 * the handler's topic runs the handler (which injects Spring beans), its JdbcTemplate write and the
 * idempotency mark commit together in a Spring transaction, and the result reaches the results
 * topic; a handler that throws rolls both back.
 */
@TasklaneStack
class WorkerAutoConfigurationTest {
  private static TestDatabases db;
  private static Topics topics;
  private static KafkaProducer<byte[], byte[]> producer;
  private static KafkaConsumer<byte[], byte[]> results;
  private static final List<TaskResult> seen = new CopyOnWriteArrayList<>();
  private static ConfigurableApplicationContext ctx;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    db = new TestDatabases(stack);
    topics = new Topics("s" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
      TopicAdmin.ensure(
          admin,
          List.of(
              TopicAdmin.Spec.of(topics.results(), 1),
              TopicAdmin.Spec.of(topics.logs(), 1),
              TopicAdmin.Spec.of(topics.handler("greet"), 1),
              TopicAdmin.Spec.of(topics.handlerDlt("greet"), 1),
              TopicAdmin.Spec.of(topics.handler("wave"), 1),
              TopicAdmin.Spec.of(topics.handlerDlt("wave"), 1)));
    }
    producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()),
            new ByteArraySerializer(),
            new ByteArraySerializer());
    results =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
    List<TopicPartition> parts =
        results.partitionsFor(topics.results(), Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(topics.results(), p.partition()))
            .collect(Collectors.toList());
    results.assign(parts);
    results.seekToBeginning(parts);
    ctx =
        db.run(
            WorkerApp.class,
            "tasklane.worker.namespace=" + topics.namespace(),
            "spring.kafka.bootstrap-servers=" + stack.bootstrapServers(),
            "tasklane.worker.name=spring-test-worker",
            "tasklane.worker.handler-partitions=1",
            "tasklane.worker.shutdown-grace=5s",
            "tasklane.worker.kafka.session.timeout.ms=6000",
            "tasklane.worker.kafka.heartbeat.interval.ms=1000");
  }

  @AfterAll
  static void stop() {
    if (ctx != null) {
      SpringWorker worker = ctx.getBean(SpringWorker.class);
      assertThat(worker.isRunning()).isTrue();
      ctx.close();
      assertThat(worker.isRunning()).isFalse();
      assertThat(worker.runtime().state()).isEqualTo("STOPPED");
    }
    if (producer != null) {
      producer.close(Duration.ofSeconds(5));
    }
    if (results != null) {
      results.close(Duration.ofSeconds(2));
    }
  }

  @Test
  void aClassHandlerBeanRunsInASpringTransactionWithItsIdempotencyMark() throws Exception {
    Dispatch d = dispatch("greet", "ada");
    send(d);

    TaskResult r = awaitResult(d.task().id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(ctx.getBean(Greeter.class).greeted).containsEntry(d.task().id(), "hello ada");
    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE item = ?", "hello ada")).isEqualTo(1);
    assertThat(db.count("SELECT COUNT(*) FROM tasklane_processed WHERE task_id = ?", d.task().id()))
        .isEqualTo(1);
    assertThat(ctx.getBean(JdbcIdempotencyStore.class).isProcessed(d.task().id())).isTrue();
    assertThat(ctx.getBean(MeterRegistry.class).getMeters()).isNotEmpty();
    CompositeHealthContributor health =
        (CompositeHealthContributor) ctx.getBean("tasklaneWorkerHealthContributor");
    HealthIndicator handlers = (HealthIndicator) health.getContributor("tasklane-worker-handlers");
    assertThat(handlers.health().getStatus()).isEqualTo(Status.UP);
  }

  @Test
  void aHandlerThatThrowsRollsBackItsWriteAndItsMark() throws Exception {
    Dispatch d = dispatch("greet", "fail-bob");
    send(d);

    TaskResult r = awaitResult(d.task().id());
    assertThat(r.outcome()).isNotEqualTo(Outcome.SUCCEEDED);
    assertThat(db.count("SELECT COUNT(*) FROM orders WHERE item = ?", "hello fail-bob")).isZero();
    assertThat(db.count("SELECT COUNT(*) FROM tasklane_processed WHERE task_id = ?", d.task().id()))
        .isZero();
  }

  @Test
  void aMethodHandlerOnAServiceBeanRuns() {
    Dispatch d = dispatch("wave", "eve");
    send(d);

    TaskResult r = awaitResult(d.task().id());
    assertThat(r.outcome()).as("%s", r.error()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(ctx.getBean(Greeter.class).greeted).containsEntry(d.task().id(), "hello wave eve");
  }

  /** A first attempt of a new task, as the scheduler dispatches it. */
  private static Dispatch dispatch(String handler, String payload) {
    long now = System.currentTimeMillis();
    JsonNode json = WireCodec.mapper().valueToTree(payload);
    TaskEnvelope task =
        TaskEnvelope.builder()
            .id(TaskIds.keyless(Clock.systemUTC()))
            .handler(handler)
            .payload(json)
            .dueAt(now)
            .maxAttempts(3)
            .timeoutMs(20_000)
            .createdAt(now)
            .build();
    return Dispatch.of(task, 1, now + 620_000, now);
  }

  private static void send(Dispatch d) {
    try {
      producer
          .send(
              new ProducerRecord<>(
                  topics.handler(d.task().handler()),
                  d.routingKey().getBytes(StandardCharsets.UTF_8),
                  WireCodec.encode(d)))
          .get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("send failed", e);
    }
  }

  /** Polls the results topic on the test thread until the task's first result arrives. */
  private static synchronized TaskResult awaitResult(String id) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              results
                  .poll(Duration.ofMillis(100))
                  .forEach(rec -> seen.add(WireCodec.decodeResult(rec.value())));
              return seen.stream().anyMatch(r -> r.id().equals(id));
            });
    return seen.stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
  }
}
