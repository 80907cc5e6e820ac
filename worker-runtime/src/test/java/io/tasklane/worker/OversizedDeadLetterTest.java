package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.tasklane.core.Dispatch;
import io.tasklane.core.Outcome;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.Dispatches;
import io.tasklane.worker.support.TopicReader;
import io.tasklane.worker.support.WorkerFixture;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * A dispatch over its DLT's {@code max.message.bytes} (lowered by the test after the worker created
 * the topics) that must be dead-lettered: the broker refuses the full copy ({@code
 * RecordTooLargeException}, not retriable). The worker sends a truncated copy instead, or, when
 * even that is refused, logs, counts and drops it; either way it answers the attempt, commits past
 * the record and processes the next one.
 */
@TasklaneStack
class OversizedDeadLetterTest {

  record Order(String id, int qty) {}

  @Singleton
  @Requires(property = "test.suite", value = "dlt")
  static class Handlers {
    @TaskHandler("strict")
    public void strict(Order order) {}

    @TaskHandler("tiny")
    public void tiny(Order order) {}
  }

  @Factory
  @Requires(property = "test.suite", value = "dlt")
  static class Metrics {
    @Singleton
    MeterRegistry registry() {
      return new SimpleMeterRegistry();
    }
  }

  @Test
  void aDeadLetterTooLargeForItsTopicIsSentTruncatedOrDroppedAndThePartitionMovesOn(
      LocalStack stack) throws Exception {
    try (WorkerFixture fx = new WorkerFixture(stack, "dlt", List.of());
        Admin admin =
            Admin.create(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
      // one partition each; the worker creates the topics (with Tasklane's message limit) ...
      ApplicationContext ctx =
          fx.start(
              Map.of(
                  "tasklane.worker.handlers.strict.partitions", 1,
                  "tasklane.worker.handlers.tiny.partitions", 1));
      // ... then the DLT of "strict" is cut to 20 kB, the one of "tiny" to 600 bytes
      admin
          .incrementalAlterConfigs(
              Map.of(
                  dlt(fx, "strict"), List.of(maxMessageBytes("20000")),
                  dlt(fx, "tiny"), List.of(maxMessageBytes("600"))))
          .all()
          .get();
      try (TopicReader strictDlt =
              new TopicReader(stack.bootstrapServers(), fx.topics.handlerDlt("strict"));
          TopicReader tinyDlt =
              new TopicReader(stack.bootstrapServers(), fx.topics.handlerDlt("tiny"))) {
        MeterRegistry registry = ctx.getBean(MeterRegistry.class);
        // 30 kB that do not bind to Order: dead-lettered, over the strict DLT's 20 kB
        List<String> big = List.of("x".repeat(30_000));
        Dispatch strictBig = Dispatches.of("strict", big, 30_000);
        Dispatch strictNext = Dispatches.of("strict", new Order("o1", 1), 30_000);
        Dispatch tinyBig = Dispatches.of("tiny", big, 30_000);
        Dispatch tinyNext = Dispatches.of("tiny", new Order("o2", 2), 30_000);
        for (Dispatch d : List.of(strictBig, strictNext, tinyBig, tinyNext)) {
          fx.send(d);
        }

        assertThat(fx.awaitResult(strictBig.id()).outcome()).isEqualTo(Outcome.PERMANENT_FAILURE);
        assertThat(fx.awaitResult(strictNext.id()).outcome()).isEqualTo(Outcome.SUCCEEDED);
        assertThat(fx.awaitResult(tinyBig.id()).outcome()).isEqualTo(Outcome.PERMANENT_FAILURE);
        assertThat(fx.awaitResult(tinyNext.id()).outcome()).isEqualTo(Outcome.SUCCEEDED);

        // strict: one truncated copy, saying what was cut and why
        await().atMost(Duration.ofSeconds(10)).until(() -> strictDlt.records().size() == 1);
        ConsumerRecord<byte[], byte[]> cut = strictDlt.records().get(0);
        assertThat(cut.value()).hasSize(1_024);
        assertThat(new String(cut.key(), StandardCharsets.UTF_8)).isEqualTo(strictBig.routingKey());
        assertThat(header(cut, "tasklane.truncated"))
            .contains("cut to at most 1024")
            .contains("RecordTooLargeException");
        assertThat(header(cut, "tasklane.error.class"))
            .isEqualTo("io.tasklane.core.WireFormatException");
        assertThat(counter(registry, "tasklane.worker.dead.letters.truncated", "strict"))
            .isEqualTo(1.0);
        assertThat(counter(registry, "tasklane.worker.publish.dropped", "strict")).isZero();

        // tiny: even the truncated copy is refused: dropped and counted, nothing in the DLT
        assertThat(counter(registry, "tasklane.worker.publish.dropped", "tiny")).isEqualTo(1.0);
        assertThat(tinyDlt.records()).isEmpty();

        // both partitions are committed past both records
        for (String h : List.of("strict", "tiny")) {
          String group = fx.topics.namespace() + "-worker." + h;
          TopicPartition tp = new TopicPartition(fx.topics.handler(h), 0);
          await().atMost(Duration.ofSeconds(15)).until(() -> committed(admin, group, tp) == 2L);
        }
        // and nothing was re-sent meanwhile
        assertThat(strictDlt.records()).hasSize(1);
        assertThat(fx.results(strictBig.id())).hasSize(1);
        assertThat(fx.results(tinyBig.id())).hasSize(1);
      }
    }
  }

  private static ConfigResource dlt(WorkerFixture fx, String handler) {
    return new ConfigResource(ConfigResource.Type.TOPIC, fx.topics.handlerDlt(handler));
  }

  private static AlterConfigOp maxMessageBytes(String value) {
    return new AlterConfigOp(new ConfigEntry("max.message.bytes", value), AlterConfigOp.OpType.SET);
  }

  private static long committed(Admin admin, String group, TopicPartition tp) throws Exception {
    OffsetAndMetadata o =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(tp);
    return o == null ? -1 : o.offset();
  }

  private static double counter(MeterRegistry registry, String name, String handler) {
    return registry.get(name).tag("handler", handler).counter().count();
  }

  private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
    return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }
}
