package io.tasklane.worker.support;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads every partition of one topic from the beginning on a background thread. */
public final class TopicReader implements AutoCloseable {
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Thread thread;
  private final List<ConsumerRecord<byte[], byte[]>> records = new CopyOnWriteArrayList<>();
  private volatile boolean running = true;

  public TopicReader(String bootstrap, String topic) {
    consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
    List<TopicPartition> parts =
        consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(topic, p.partition()))
            .collect(Collectors.toList());
    consumer.assign(parts);
    consumer.seekToBeginning(parts);
    thread = new Thread(this::loop, "reader-" + topic);
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    try {
      while (running) {
        consumer.poll(Duration.ofMillis(50)).forEach(records::add);
      }
    } catch (WakeupException e) {
      // closing
    } finally {
      consumer.close(Duration.ofSeconds(2));
    }
  }

  public List<ConsumerRecord<byte[], byte[]>> records() {
    return records;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    thread.join(5_000);
  }
}
