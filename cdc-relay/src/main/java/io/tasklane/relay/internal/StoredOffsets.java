package io.tasklane.relay.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads the engine's stored offset from the Kafka offsets topic (as Kafka Connect wrote it: key
 * {@code ["<engine name>", {partition}]}, value the source offset as JSON), and forgets it with a
 * tombstone so the next engine start re-reads the table. Leader loop thread only, before the engine
 * starts.
 */
final class StoredOffsets {
  private final KafkaClients clients;
  private final String topic;
  private final String engineName;

  StoredOffsets(KafkaClients clients, String topic, String engineName) {
    this.clients = clients;
    this.topic = topic;
    this.engineName = engineName;
  }

  /** The latest stored offset of this engine: raw key plus binlog file and position. */
  record Stored(byte[] key, String file, long pos, JsonNode value) {}

  Optional<Stored> read() {
    Map<String, byte[]> latestValue = new HashMap<>();
    Map<String, byte[]> keys = new HashMap<>();
    try (KafkaConsumer<byte[], byte[]> consumer = clients.rawConsumer()) {
      List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
      if (infos == null || infos.isEmpty()) {
        return Optional.empty();
      }
      List<TopicPartition> parts =
          infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("reading " + topic + " took over 60 s");
        }
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          if (r.key() == null || !isOurs(r.key())) {
            continue;
          }
          String k = Arrays.toString(r.key());
          keys.put(k, r.key());
          latestValue.put(k, r.value());
        }
      }
    }
    for (var e : latestValue.entrySet()) {
      if (e.getValue() != null) {
        JsonNode v = WireCodec.readTree(new String(e.getValue(), StandardCharsets.UTF_8));
        return Optional.of(
            new Stored(
                keys.get(e.getKey()), v.path("file").asText(null), v.path("pos").asLong(0), v));
      }
    }
    return Optional.empty();
  }

  /** Writes a tombstone for {@code stored}'s key and waits for Kafka's acknowledgement. */
  void forget(Stored stored) throws Exception {
    try (var producer = new KafkaProducer<byte[], byte[]>(withByteSerializers(clients.common()))) {
      producer.send(new ProducerRecord<>(topic, stored.key(), null)).get(30, TimeUnit.SECONDS);
    }
  }

  private boolean isOurs(byte[] key) {
    try {
      JsonNode k = WireCodec.mapper().readTree(key);
      return k.isArray() && k.size() == 2 && engineName.equals(k.get(0).asText());
    } catch (Exception e) {
      return false;
    }
  }

  private static Map<String, Object> withByteSerializers(Map<String, Object> common) {
    Map<String, Object> p = new HashMap<>(common);
    p.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
    p.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
    p.put("acks", "all");
    return p;
  }
}
