package io.tasklane.bench.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Consumers the bench's watchers read a topic with from its end on: no group, no commits. */
final class EndConsumers {
  private EndConsumers() {}

  /**
   * A consumer assigned every partition of {@code topic} and positioned at its end now (the
   * positions resolved before this returns, so nothing written afterwards is missed).
   */
  static KafkaConsumer<String, byte[]> atEnd(String bootstrap, String topic) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> parts = new ArrayList<>();
    consumer
        .partitionsFor(topic, Duration.ofSeconds(30))
        .forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
    consumer.assign(parts);
    consumer.seekToEnd(parts);
    parts.forEach(consumer::position);
    return consumer;
  }
}
