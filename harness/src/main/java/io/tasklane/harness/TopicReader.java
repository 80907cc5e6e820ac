package io.tasklane.harness;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a whole topic, from the beginning to the end offsets it has when the read starts, with a
 * fresh consumer group that commits nothing: how a verifier counts what reached a topic. Runs on
 * the caller's thread.
 */
public final class TopicReader {
  private final String bootstrap;
  private final String groupPrefix;
  private final Map<String, Object> settings = new HashMap<>();
  private Duration metadataTimeout = Duration.ofSeconds(10);
  private Duration readTimeout = Duration.ofSeconds(20);
  private Duration pollTimeout = Duration.ofMillis(200);

  /**
   * @param bootstrap Kafka bootstrap servers
   * @param groupPrefix the consumer group is {@code <groupPrefix><random UUID>}
   */
  public TopicReader(String bootstrap, String groupPrefix) {
    this.bootstrap = bootstrap;
    this.groupPrefix = groupPrefix;
  }

  /** An extra consumer setting, e.g. {@code isolation.level}. */
  public TopicReader setting(String key, Object value) {
    settings.put(key, value);
    return this;
  }

  /** How long to wait for the topic's partitions, the whole read and one poll. */
  public TopicReader timeouts(Duration metadata, Duration read, Duration poll) {
    this.metadataTimeout = metadata;
    this.readTimeout = read;
    this.pollTimeout = poll;
    return this;
  }

  /**
   * Hands every record of {@code topic} to {@code each}; stops at the end offsets or after the read
   * timeout. A topic without partitions (not created yet) has no records.
   */
  public void readAll(String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
    Map<String, Object> props = new HashMap<>(settings);
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.GROUP_ID_CONFIG, groupPrefix + UUID.randomUUID());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (var consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      var infos = consumer.partitionsFor(topic, metadataTimeout);
      if (infos == null || infos.isEmpty()) {
        return;
      }
      List<TopicPartition> parts =
          infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      var end = consumer.endOffsets(parts);
      long deadline = System.currentTimeMillis() + readTimeout.toMillis();
      while (System.currentTimeMillis() < deadline
          && parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        consumer.poll(pollTimeout).forEach(each);
      }
    }
  }
}
