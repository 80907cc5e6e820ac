package io.tasklane.bench.internal;

import io.tasklane.core.Dispatch;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A stand-in worker inside the bench JVM: consumes one handler topic and answers every dispatch at
 * once on {@code <ns>.results} with what {@code answer} makes of it (a FAILED result for the api
 * scenario's dead tasks, SUCCEEDED for the schedules scenario's fires), so that a scenario can load
 * the scheduler without a worker process taking CPU. Its own thread; {@link #close} stops it.
 */
final class Answerer implements AutoCloseable {
  private final Thread thread;
  private volatile boolean running = true;

  Answerer(String bootstrap, Topics topics, String handler, Function<Dispatch, Object> answer) {
    thread =
        Scenarios.background(
            () -> {
              Properties c = new Properties();
              c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
              c.put(ConsumerConfig.GROUP_ID_CONFIG, topics.namespace() + "-bench-" + handler);
              c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
              Properties p = new Properties();
              p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
              p.put(ProducerConfig.LINGER_MS_CONFIG, "10");
              try (KafkaConsumer<String, byte[]> consumer =
                      new KafkaConsumer<>(
                          c, new StringDeserializer(), new ByteArrayDeserializer());
                  KafkaProducer<String, byte[]> producer =
                      new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
                consumer.subscribe(List.of(topics.handler(handler)));
                while (running) {
                  for (ConsumerRecord<String, byte[]> rec : consumer.poll(Duration.ofMillis(200))) {
                    Dispatch d = WireCodec.decodeDispatch(rec.value());
                    producer.send(
                        new ProducerRecord<>(
                            topics.results(), d.routingKey(), WireCodec.encode(answer.apply(d))));
                  }
                }
              }
            });
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(10_000);
  }
}
