package io.tasklane.worker.internal;

import io.tasklane.worker.HandlerConfig;
import io.tasklane.worker.WorkerConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The Kafka clients of the worker; {@code tasklane.worker.kafka.*} overrides the defaults. */
final class KafkaClients {
  private KafkaClients() {}

  static KafkaProducer<byte[], byte[]> producer(WorkerConfig config) {
    Map<String, Object> p = base(config);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, config.workerName() + "-results");
    p.putAll(config.kafka());
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /**
   * A consumer of one handler topic in group {@code <group-id>.<handler>}: no auto-commit, reads
   * from the earliest offset when the group is new, at most {@code max-in-flight} records a poll.
   */
  static KafkaConsumer<byte[], byte[]> consumer(
      WorkerConfig config, String handler, HandlerConfig hc) {
    Map<String, Object> p = base(config);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId() + "." + handler);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, config.workerName() + "-" + handler);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, hc.maxInFlight());
    p.putAll(config.kafka());
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  static Admin admin(WorkerConfig config) {
    Map<String, Object> p = base(config);
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, config.workerName() + "-admin");
    return Admin.create(p);
  }

  private static Map<String, Object> base(WorkerConfig config) {
    Map<String, Object> p = new HashMap<>();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    return p;
  }
}
