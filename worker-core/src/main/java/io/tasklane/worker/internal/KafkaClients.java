package io.tasklane.worker.internal;

import io.tasklane.core.TopicAdmin;
import io.tasklane.worker.HandlerConfig;
import io.tasklane.worker.WorkerConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Kafka clients of the worker. Every client (consumers, producer, admin) takes {@code
 * tasklane.worker.kafka.*} on top of its defaults, so e.g. SASL_SSL settings reach all of them; the
 * settings the delivery guarantees rest on are put last and cannot be overridden ({@link
 * WorkerConfig} refuses them at start).
 */
final class KafkaClients {
  private KafkaClients() {}

  static KafkaProducer<byte[], byte[]> producer(WorkerConfig config) {
    return new KafkaProducer<>(
        producerConfig(config), new ByteArraySerializer(), new ByteArraySerializer());
  }

  static Map<String, Object> producerConfig(WorkerConfig config) {
    Map<String, Object> p = base(config);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, config.workerName() + "-results");
    // the largest valid dispatch, copied to a DLT with error headers, must fit a request
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, TopicAdmin.MAX_MESSAGE_BYTES);
    p.putAll(config.kafka());
    p.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG); // the consumers' static membership
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    return p;
  }

  /**
   * A consumer of one handler topic in group {@code <group-id>.<handler>}: no auto-commit, reads
   * from the earliest offset when the group is new, at most {@code max-in-flight} records a poll,
   * session timeout {@code session-timeout} and cooperative-sticky assignment (classic group
   * protocol; {@code kafka.*} wins). {@code kafka.group.instance.id} makes it a static member: a
   * worker restarted with the same id after a crash takes its partitions back at once instead of
   * waiting for the dead member's session to expire (only the handler consumers get it).
   */
  static KafkaConsumer<byte[], byte[]> consumer(
      WorkerConfig config, String handler, HandlerConfig hc) {
    return new KafkaConsumer<>(
        consumerConfig(config, handler, hc),
        new ByteArrayDeserializer(),
        new ByteArrayDeserializer());
  }

  static Map<String, Object> consumerConfig(WorkerConfig config, String handler, HandlerConfig hc) {
    Map<String, Object> p = base(config);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, config.workerName() + "-" + handler);
    if (!"consumer".equalsIgnoreCase(config.kafka().get(ConsumerConfig.GROUP_PROTOCOL_CONFIG))) {
      // the classic protocol: the client asks for its session timeout (the new one has none)
      long session = config.sessionTimeout().toMillis();
      p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) session);
      p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(100, session / 4));
      // cooperative: when a worker dies the others keep their partitions, so taking over its
      // partitions does not wait for their own running handlers (an eager revocation drains them)
      p.put(
          ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
          CooperativeStickyAssignor.class.getName());
    }
    p.putAll(config.kafka());
    String session = config.kafka().get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
    if (session != null
        && !config.kafka().containsKey(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG)
        && session.trim().matches("\\d{1,9}")) {
      // kafka.session.timeout.ms without a heartbeat: the heartbeat follows it (a quarter)
      p.put(
          ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
          (int) Math.max(100, Long.parseLong(session.trim()) / 4));
    }
    p.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId() + "." + handler);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, hc.maxInFlight());
    return p;
  }

  /**
   * A consumer without a group ({@code <ns>.interrupts}, {@code <ns>.handler-settings}): the caller
   * assigns partitions and positions itself; nothing is committed.
   */
  static KafkaConsumer<byte[], byte[]> groupless(WorkerConfig config, String purpose) {
    Map<String, Object> p = base(config);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, config.workerName() + "-" + purpose);
    p.putAll(config.kafka());
    p.remove(ConsumerConfig.GROUP_ID_CONFIG);
    p.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  static Admin admin(WorkerConfig config) {
    return Admin.create(adminConfig(config));
  }

  static Map<String, Object> adminConfig(WorkerConfig config) {
    Map<String, Object> p = base(config);
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, config.workerName() + "-admin");
    p.putAll(config.kafka());
    p.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    return p;
  }

  private static Map<String, Object> base(WorkerConfig config) {
    Map<String, Object> p = new HashMap<>();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    return p;
  }
}
