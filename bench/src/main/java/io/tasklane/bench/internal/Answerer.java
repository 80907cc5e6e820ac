package io.tasklane.bench.internal;

import io.tasklane.core.Dispatch;
import io.tasklane.core.Topics;
import io.tasklane.core.Wire;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WorkerHeartbeat;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Properties;
import java.util.function.BiConsumer;
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
 * A stand-in worker inside the bench JVM: consumes one handler topic and answers every dispatch on
 * {@code <ns>.results} with what {@code answer} makes of it (a FAILED result for the api scenario's
 * dead tasks, SUCCEEDED for the schedules scenario's fires), at once or, for a dispatch sent ahead
 * of its instant, at its {@code notBefore}, as a worker would, so that a scenario can load the
 * scheduler without a worker process taking CPU. With {@code heartbeat}, it says so on {@code
 * <ns>.workers} as a worker that holds dispatches (so the scheduler sends fires ahead to it), and
 * removes itself on close. Its own thread; {@link #close} stops it.
 */
final class Answerer implements AutoCloseable {
  private static final long BEAT_MS = 1_000;

  private record Held(long notBefore, Dispatch dispatch) {}

  private final Thread thread;
  private volatile boolean running = true;

  Answerer(String bootstrap, Topics topics, String handler, Function<Dispatch, Object> answer) {
    this(bootstrap, topics, handler, false, answer, (d, timestamp) -> {});
  }

  /**
   * As above; {@code seen} is told of every dispatch read and its record's timestamp, on the
   * answerer's thread, before it is held or answered.
   */
  Answerer(
      String bootstrap,
      Topics topics,
      String handler,
      boolean heartbeat,
      Function<Dispatch, Object> answer,
      BiConsumer<Dispatch, Long> seen) {
    String id = topics.namespace() + "-bench-answerer-" + handler;
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
              PriorityQueue<Held> held =
                  new PriorityQueue<>(Comparator.comparingLong(Held::notBefore));
              long beatAt = 0;
              try (KafkaConsumer<String, byte[]> consumer =
                      new KafkaConsumer<>(
                          c, new StringDeserializer(), new ByteArrayDeserializer());
                  KafkaProducer<String, byte[]> producer =
                      new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
                consumer.subscribe(List.of(topics.handler(handler)));
                while (running) {
                  long now = System.currentTimeMillis();
                  if (heartbeat && now >= beatAt) {
                    beatAt = now + BEAT_MS;
                    producer.send(
                        new ProducerRecord<>(
                            topics.workers(), id, WireCodec.encode(beat(id, handler, now))));
                  }
                  long wait = held.isEmpty() ? 200 : held.peek().notBefore() - now;
                  for (ConsumerRecord<String, byte[]> rec :
                      consumer.poll(Duration.ofMillis(Math.max(1, Math.min(200, wait))))) {
                    Dispatch d = WireCodec.decodeDispatch(rec.value());
                    seen.accept(d, rec.timestamp());
                    held.add(new Held(d.notBefore() == null ? 0 : d.notBefore(), d));
                  }
                  now = System.currentTimeMillis();
                  while (!held.isEmpty() && held.peek().notBefore() <= now) {
                    Dispatch d = held.poll().dispatch();
                    producer.send(
                        new ProducerRecord<>(
                            topics.results(), d.routingKey(), WireCodec.encode(bound(answer, d))));
                  }
                }
                if (heartbeat) {
                  producer.send(new ProducerRecord<>(topics.workers(), id, null));
                }
              }
            });
  }

  private static WorkerHeartbeat beat(String id, String handler, long now) {
    return new WorkerHeartbeat(
        Wire.VERSION,
        id,
        "bench-answerer",
        "localhost",
        ProcessHandle.current().pid(),
        "bench",
        now,
        now,
        BEAT_MS,
        List.of(new WorkerHeartbeat.HandlerBeat(handler, 1, 0, List.of())),
        true);
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(10_000);
  }

  /**
   * The answer to {@code d}; a result bound to {@code d} (its nonce and handler), as a worker's.
   */
  private static Object bound(Function<Dispatch, Object> answer, Dispatch d) {
    Object a = answer.apply(d);
    return a instanceof io.tasklane.core.TaskResult r ? r.answering(d) : a;
  }
}
