package io.tasklane.scheduler.internal.ops;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Its own named thread reading a compacted topic (every partition, from the beginning, then
 * following it) without a consumer group, handing each record to {@code apply} on that thread. Used
 * for {@code <ns>.workers} ({@link WorkerRegistry}); the caller keeps the latest value per key. A
 * failing poll is logged and retried after a pause.
 */
final class CompactedTopicReader implements Runnable, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CompactedTopicReader.class);
  private static final Duration POLL = Duration.ofMillis(200);

  private final KafkaConsumer<String, byte[]> consumer;
  private final String topic;
  private final Consumer<ConsumerRecord<String, byte[]>> apply;
  private final Thread thread;
  private volatile boolean running = true;

  CompactedTopicReader(
      Properties clients,
      String topic,
      String threadName,
      Consumer<ConsumerRecord<String, byte[]>> apply) {
    Properties p = new Properties();
    p.putAll(clients);
    p.remove(ConsumerConfig.GROUP_ID_CONFIG);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, threadName);
    this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    this.topic = topic;
    this.apply = apply;
    this.thread = new Thread(this, threadName);
    thread.setDaemon(true);
  }

  /** Starts reading; call once. */
  void start() {
    thread.start();
  }

  @Override
  public void run() {
    try {
      List<TopicPartition> parts = partitions();
      if (parts.isEmpty()) {
        return; // closed before the topic's partitions were known
      }
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      while (running) {
        try {
          for (ConsumerRecord<String, byte[]> r : consumer.poll(POLL)) {
            apply.accept(r);
          }
        } catch (WakeupException e) {
          // close() woke the poll
        } catch (RuntimeException e) {
          LOG.warn("reading {} failed; retrying: {}", topic, e.toString());
          pause();
        }
      }
    } catch (WakeupException e) {
      // closed while assigning
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  /**
   * The topic's partitions, asked again after a pause while the consumer's metadata does not know
   * them yet (a topic created just before, whose metadata has not reached every broker): assigning
   * an empty list would leave every poll failing with "not subscribed". Empty only once closed.
   */
  private List<TopicPartition> partitions() {
    while (running) {
      try {
        List<TopicPartition> parts =
            consumer.partitionsFor(topic).stream()
                .map(i -> new TopicPartition(topic, i.partition()))
                .toList();
        if (!parts.isEmpty()) {
          return parts;
        }
        LOG.info("{} has no partitions known yet; asking again", topic);
      } catch (WakeupException e) {
        throw e;
      } catch (RuntimeException e) {
        LOG.warn("listing the partitions of {} failed; retrying: {}", topic, e.toString());
      }
      pause();
    }
    return List.of();
  }

  private void pause() {
    try {
      Thread.sleep(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  /** Any thread: stops reading and closes the consumer (on the reader's thread). */
  @Override
  public void close() {
    running = false;
    consumer.wakeup();
  }
}
