package io.tasklane.chaos.internal;

import io.tasklane.core.TaskResult;
import io.tasklane.core.WireCodec;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the whole results topic (read_committed) and counts deliveries that the worker absorbed: a
 * second result for the same task id and attempt means the same dispatch ran again (after a worker
 * or scheduler was killed) and the idempotency store turned it into a no-op. A delivery whose first
 * run died before its result was written is not visible here (a lower bound).
 */
public final class ResultsReader {
  private ResultsReader() {}

  /** Results beyond the first per (task id, attempt). */
  public static long duplicateDeliveries(String bootstrap, String topic) {
    Map<String, Integer> seen = new HashMap<>();
    Map<String, Object> props =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG,
            "chaos-verifier-" + UUID.randomUUID(),
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed",
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
            5000);
    try (var consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      var infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
      List<TopicPartition> parts =
          infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      var end = consumer.endOffsets(parts);
      long deadline = System.currentTimeMillis() + 120_000;
      while (System.currentTimeMillis() < deadline
          && parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        consumer
            .poll(Duration.ofMillis(500))
            .forEach(
                r -> {
                  try {
                    TaskResult result = WireCodec.decodeResult(r.value());
                    seen.merge(result.id() + "#" + result.attempt(), 1, Integer::sum);
                  } catch (RuntimeException e) {
                    // not a result: the scheduler's own business
                  }
                });
      }
    }
    return seen.values().stream().mapToLong(n -> n - 1L).sum();
  }
}
