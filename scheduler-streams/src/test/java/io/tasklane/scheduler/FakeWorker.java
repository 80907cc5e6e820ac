package io.tasklane.scheduler;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** A worker stand-in: answers every dispatch of one handler with SUCCEEDED. */
final class FakeWorker implements AutoCloseable {
  final Set<String> seen = ConcurrentHashMap.newKeySet();
  final AtomicLong dispatches = new AtomicLong();
  final AtomicLong early = new AtomicLong();

  /** The handler partition each routing key's dispatches arrived on (the last one seen). */
  final Map<String, Integer> partitionOf = new ConcurrentHashMap<>();

  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread thread;

  FakeWorker(String bootstrap, Topics topics, String handler) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, topics.namespace() + "-worker");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    KafkaProducer<String, byte[]> producer = StackSupport.producer(bootstrap);
    consumer.subscribe(List.of(topics.handler(handler)));
    thread =
        new Thread(
            () -> {
              try (consumer;
                  producer) {
                while (running.get()) {
                  for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    Dispatch d = WireCodec.decodeDispatch(r.value());
                    long now = System.currentTimeMillis();
                    if (d.dispatchedAt() < d.task().dueAt()) {
                      early.incrementAndGet();
                    }
                    dispatches.incrementAndGet();
                    seen.add(d.id());
                    partitionOf.put(d.routingKey(), r.partition());
                    TaskResult ok = TaskResult.succeeded(d.id(), d.attempt(), now, now, "fake");
                    producer.send(
                        new ProducerRecord<>(
                            topics.results(), d.routingKey(), WireCodec.encode(ok)));
                  }
                }
              }
            },
            "fake-worker");
    thread.start();
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    thread.join(10_000);
  }
}
