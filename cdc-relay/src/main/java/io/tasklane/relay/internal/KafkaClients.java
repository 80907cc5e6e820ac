package io.tasklane.relay.internal;

import io.tasklane.core.TopicAdmin;
import io.tasklane.relay.RelayConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Creates the relay's Kafka clients with the pass-through settings (SASL/TLS...) applied. */
final class KafkaClients {
  private final RelayConfig config;

  KafkaClients(RelayConfig config) {
    this.config = config;
  }

  /** Bootstrap servers plus every {@code tasklane.relay.kafka.*} setting. */
  Map<String, Object> common() {
    Map<String, Object> p = new HashMap<>();
    p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    p.putAll(config.kafka());
    return p;
  }

  /** Idempotent, {@code acks=all}; the relay waits for every future before marking offsets. */
  KafkaProducer<String, byte[]> producer() {
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 1);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, TopicAdmin.MAX_MESSAGE_BYTES); // as the topics
    p.put(ProducerConfig.CLIENT_ID_CONFIG, config.name() + "-producer");
    p.putAll(common());
    // Never let pass-through settings weaken the delivery guarantee.
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  KafkaConsumer<byte[], byte[]> rawConsumer() {
    Map<String, Object> p = new HashMap<>();
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, config.name() + "-offset-reader");
    p.putAll(common());
    p.remove(ConsumerConfig.GROUP_ID_CONFIG);
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /**
   * A consumer in group {@code groupId} that commits its offsets itself and starts a new group at
   * the beginning of its topics; {@code clientSuffix} ends its client id.
   */
  KafkaConsumer<byte[], byte[]> groupConsumer(String groupId, String clientSuffix) {
    Map<String, Object> p = new HashMap<>();
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, config.name() + clientSuffix);
    p.putAll(common());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  Admin admin() {
    return Admin.create(common());
  }
}
