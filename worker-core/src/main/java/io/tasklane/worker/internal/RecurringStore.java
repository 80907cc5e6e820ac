package io.tasklane.worker.internal;

import io.tasklane.core.TopicAdmin;
import io.tasklane.core.WireCodec;
import io.tasklane.worker.WorkerConfig;
import io.tasklane.worker.WorkerException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compacted {@code <ns>.recurring} topic: one manifest per worker app, keyed by the app. Read
 * from the beginning to the end at start (no consumer group, so no group ACL), written after the
 * definitions were acknowledged. Start-up thread only.
 */
final class RecurringStore {
  private static final Logger LOG = LoggerFactory.getLogger(RecurringStore.class);
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final WorkerConfig config;

  RecurringStore(WorkerConfig config) {
    this.config = config;
  }

  String topic() {
    return config.topics().recurring();
  }

  /** Creates the topic when missing: compacted, one partition. */
  void ensure(Admin admin) {
    TopicAdmin.ensure(admin, List.of(TopicAdmin.Spec.compacted(topic(), 1)), config.replication());
  }

  /** The app's manifest, or null when it has none (or a tombstone). */
  RecurringManifest read(String app) {
    Map<String, Object> p = new HashMap<>(KafkaClients.adminConfig(config));
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, config.workerName() + "-recurring");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.remove(ConsumerConfig.GROUP_ID_CONFIG);
    RecurringManifest found = null;
    try (var consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts =
          consumer.partitionsFor(topic(), TIMEOUT).stream()
              .map(i -> new TopicPartition(topic(), i.partition()))
              .toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts, TIMEOUT);
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (parts.stream().anyMatch(tp -> consumer.position(tp, TIMEOUT) < end.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new WorkerException("reading " + topic() + " took longer than " + TIMEOUT);
        }
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.key() != null && app.equals(new String(r.key(), StandardCharsets.UTF_8))) {
            found = r.value() == null ? null : decode(r.value());
          }
        }
      }
    }
    return found;
  }

  /** Writes {@code manifest} and waits for the acknowledgement. */
  void write(KafkaProducer<byte[], byte[]> producer, RecurringManifest manifest) {
    send(
        producer,
        new ProducerRecord<>(
            topic(), manifest.app().getBytes(StandardCharsets.UTF_8), WireCodec.encode(manifest)));
  }

  static void send(KafkaProducer<byte[], byte[]> producer, ProducerRecord<byte[], byte[]> record) {
    try {
      producer.send(record).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WorkerException("interrupted while writing to " + record.topic(), e);
    } catch (Exception e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new WorkerException("cannot write to " + record.topic() + ": " + cause, cause);
    }
  }

  /** A manifest that does not decode counts as none: definitions are published again. */
  private RecurringManifest decode(byte[] value) {
    try {
      return WireCodec.decode(value, RecurringManifest.class);
    } catch (RuntimeException e) {
      LOG.warn(
          "the manifest of code-defined schedules on {} is unreadable and is replaced ({}); schedules"
              + " it held that the code no longer has are not disabled",
          topic(),
          e.toString());
      return null;
    }
  }
}
