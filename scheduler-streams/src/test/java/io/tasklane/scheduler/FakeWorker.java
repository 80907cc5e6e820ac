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
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A worker stand-in: answers every dispatch of one handler with SUCCEEDED, or as told, each answer
 * bound to its dispatch (its nonce and handler) as a worker's.
 */
final class FakeWorker implements AutoCloseable {
  final Set<String> seen = ConcurrentHashMap.newKeySet();
  final AtomicLong dispatches = new AtomicLong();
  final AtomicLong early = new AtomicLong();

  /** Every dispatch received, in arrival order (redeliveries included). */
  final List<Dispatch> received = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** The handler partition each routing key's dispatches arrived on (the last one seen). */
  final Map<String, Integer> partitionOf = new ConcurrentHashMap<>();

  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread thread;

  FakeWorker(String bootstrap, Topics topics, String handler) {
    this(
        bootstrap,
        topics,
        handler,
        d -> {
          long now = System.currentTimeMillis();
          return TaskResult.succeeded(d.id(), d.attempt(), now, now, "fake");
        });
  }

  /**
   * A worker stand-in that answers each dispatch with {@code answer}'s result, given the dispatch
   * and the time it arrived.
   */
  FakeWorker(
      String bootstrap,
      Topics topics,
      String handler,
      java.util.function.BiFunction<Dispatch, Long, TaskResult> answer) {
    this(
        bootstrap,
        topics,
        handler,
        (Function<Dispatch, TaskResult>) d -> answer.apply(d, System.currentTimeMillis()));
  }

  /** A worker stand-in that answers each dispatch with {@code answer}'s result. */
  FakeWorker(
      String bootstrap, Topics topics, String handler, Function<Dispatch, TaskResult> answer) {
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
                    if (d.dispatchedAt() < d.task().dueAt()) {
                      early.incrementAndGet();
                    }
                    dispatches.incrementAndGet();
                    seen.add(d.id());
                    received.add(d);
                    partitionOf.put(d.routingKey(), r.partition());
                    producer.send(
                        new ProducerRecord<>(
                            topics.results(),
                            d.routingKey(),
                            WireCodec.encode(answer.apply(d).answering(d))));
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
