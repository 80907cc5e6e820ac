package io.tasklane.examples.demo;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Counts which of the given task ids have a record on a dead-letter topic. */
final class DltCounter {
  private DltCounter() {}

  static long count(String bootstrap, String topic, Collection<String> ids) {
    Map<String, Object> props =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG,
            "demo-dlt-" + UUID.randomUUID(),
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest");
    Set<String> seen = new HashSet<>();
    try (var consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
      var infos = consumer.partitionsFor(topic, Duration.ofSeconds(10));
      if (infos == null || infos.isEmpty()) {
        return 0;
      }
      List<TopicPartition> parts =
          infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      var end = consumer.endOffsets(parts);
      long deadline = System.currentTimeMillis() + 20_000;
      while (System.currentTimeMillis() < deadline
          && parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        consumer.poll(Duration.ofMillis(200)).forEach(r -> seen.add(r.key()));
      }
    }
    return ids.stream().filter(seen::contains).count();
  }
}
