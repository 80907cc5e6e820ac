package io.tasklane.bench.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Watches one handler topic from its end, on its own thread, and keeps by record key (a task's id
 * unless it has an ordering key) the producer timestamp of its first dispatch: when the scheduler
 * sent it. Readers may call {@link #sentAt} from any thread.
 */
final class DispatchTap implements AutoCloseable {
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread thread;
  private volatile boolean running = true;
  private final Map<String, Long> sent = new ConcurrentHashMap<>();

  DispatchTap(String bootstrap, String topic) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> parts = new ArrayList<>();
    consumer
        .partitionsFor(topic, Duration.ofSeconds(30))
        .forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
    consumer.assign(parts);
    consumer.seekToEnd(parts);
    parts.forEach(consumer::position);
    this.thread = new Thread(this::loop, "bench-dispatch-tap");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      try {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
          if (r.key() != null) {
            sent.putIfAbsent(r.key(), r.timestamp());
          }
        }
      } catch (Throwable t) {
        if (running) {
          System.err.println("bench dispatch tap: " + t);
        }
      }
    }
    consumer.close(Duration.ofSeconds(2));
  }

  /** When the scheduler first dispatched the task with key {@code id}, or null. */
  Long sentAt(String id) {
    return sent.get(id);
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    thread.join(5000);
  }
}
