package io.tasklane.spring;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
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

/**
 * One test class's topics on the shared stack (own namespace): dispatches produced to handler
 * topics as the scheduler would, and the results topic read from the beginning on the test thread.
 */
final class KafkaFixture implements AutoCloseable {
  final LocalStack stack;
  final Topics topics;
  private final KafkaProducer<byte[], byte[]> producer;
  private final KafkaConsumer<byte[], byte[]> results;
  private final List<TaskResult> seen = new CopyOnWriteArrayList<>();

  KafkaFixture(LocalStack stack, List<String> handlers) {
    this.stack = stack;
    this.topics = new Topics("s" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
    List<TopicAdmin.Spec> specs = new ArrayList<>();
    specs.add(TopicAdmin.Spec.of(topics.results(), 1));
    specs.add(TopicAdmin.Spec.of(topics.logs(), 1));
    for (String h : handlers) {
      specs.add(TopicAdmin.Spec.of(topics.handler(h), 1));
      specs.add(TopicAdmin.Spec.of(topics.handlerDlt(h), 1));
    }
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
      TopicAdmin.ensure(admin, specs);
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
  }

  /** The worker settings of a Spring app on these topics. */
  String[] workerProperties() {
    return new String[] {
      "tasklane.worker.namespace=" + topics.namespace(),
      "spring.kafka.bootstrap-servers=" + stack.bootstrapServers(),
      "tasklane.worker.name=spring-test-worker",
      "tasklane.worker.handler-partitions=1",
      "tasklane.worker.shutdown-grace=5s",
      "tasklane.worker.kafka.session.timeout.ms=6000",
      "tasklane.worker.kafka.heartbeat.interval.ms=1000"
    };
  }

  /** A first attempt of a new task, as the scheduler dispatches it. */
  static Dispatch dispatch(String handler, Object payload) {
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

  void send(Dispatch d) {
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

  /** Polls the results topic on the calling thread until the task's first result arrives. */
  synchronized TaskResult awaitResult(String id) {
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

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
    results.close(Duration.ofSeconds(2));
  }
}
