package io.tasklane.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.Topics;
import io.tasklane.core.tracing.Tracing;
import io.tasklane.worker.HandlerConfig;
import io.tasklane.worker.IdempotencyStore;
import io.tasklane.worker.WorkerConfig;
import io.tasklane.worker.spi.HealthReport;
import io.tasklane.worker.spi.WorkerMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The worker reports ready only when every handler's consumer joined its group and fetches: a
 * consumer that polls without an assignment yet is still joining.
 */
class ConsumersCheckTest {

  @Test
  void readyOnlyWhenRunningAndEveryConsumerFetches() {
    Map<String, Boolean> fetching = new LinkedHashMap<>();
    String[] state = {"NEW"};
    ConsumersCheck check = new ConsumersCheck(() -> state[0], () -> Map.copyOf(fetching));

    assertThat(check.check().join().up()).as("before start, no consumers").isFalse();
    state[0] = "RUNNING";
    fetching.put("mail", true);
    fetching.put("invoice", false);
    HealthReport joining = check.check().join();
    assertThat(joining.up()).isFalse();
    assertThat(joining.details().get("handlers"))
        .isEqualTo(Map.of("mail", "fetching", "invoice", "joining"));
    fetching.put("invoice", true);
    assertThat(check.check().join().up()).isTrue();
    state[0] = "STOPPED";
    assertThat(check.check().join().up()).isFalse();
  }

  @Test
  void aConsumerFetchesOnceItsGroupAssignedItPartitionsAndAPollReturned() throws Exception {
    WorkerConfig config =
        WorkerConfig.builder()
            .topics(new Topics("acme"))
            .bootstrapServers("broker:9092")
            .workerName("w1")
            .build();
    WorkerServices services =
        new WorkerServices(
            config,
            null,
            IdempotencyStore.NONE,
            null,
            Clock.systemUTC(),
            Tracing.off(),
            new RunningAttempts());
    MockConsumer<byte[], byte[]> mock = new MockConsumer<>("earliest");
    HandlerConsumer consumer =
        new HandlerConsumer(
            new HandlerDefinition("mail", "test", json -> json, (payload, context) -> {}),
            HandlerConfig.defaults(config),
            services,
            mock,
            WorkerMetrics.NOOP);
    Thread thread = new Thread(consumer, "test-consumer");
    thread.start();
    try {
      // polling, no assignment yet: not fetching for as long as the consumer has no partitions
      await()
          .during(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(2))
          .until(() -> !consumer.fetching());
      TopicPartition tp = new TopicPartition(config.topics().handler("mail"), 0);
      mock.updateBeginningOffsets(Map.of(tp, 0L));
      mock.schedulePollTask(() -> mock.rebalance(List.of(tp)));
      await().atMost(Duration.ofSeconds(5)).until(consumer::fetching);
    } finally {
      consumer.stop(System.currentTimeMillis() + 1_000);
      thread.join(10_000);
    }
  }
}
