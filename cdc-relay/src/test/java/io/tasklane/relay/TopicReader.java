package io.tasklane.relay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a topic from the beginning on a background thread, keeping every record. */
public final class TopicReader implements AutoCloseable {
  public final List<ConsumerRecord<String, byte[]>> records = new CopyOnWriteArrayList<>();

  /** First arrival per key (task records are keyed by task id in these tests). */
  public final Map<String, ConsumerRecord<String, byte[]>> firstByKey = new ConcurrentHashMap<>();

  private final Thread thread;
  private volatile boolean closed;

  public TopicReader(String bootstrap, String topic) {
    KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed"),
            new StringDeserializer(),
            new ByteArrayDeserializer());
    thread =
        new Thread(
            () -> {
              try (consumer) {
                List<TopicPartition> parts = new ArrayList<>();
                while (parts.isEmpty() && !closed) {
                  consumer
                      .partitionsFor(topic, Duration.ofSeconds(10))
                      .forEach(p -> parts.add(new TopicPartition(topic, p.partition())));
                }
                consumer.assign(parts);
                consumer.seekToBeginning(parts);
                while (!closed) {
                  for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                    records.add(r);
                    if (r.key() != null) {
                      firstByKey.putIfAbsent(r.key(), r);
                    }
                  }
                }
              } catch (RuntimeException e) {
                if (!closed) {
                  e.printStackTrace();
                }
              }
            },
            "reader-" + topic);
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    thread.join(10_000);
  }
}
