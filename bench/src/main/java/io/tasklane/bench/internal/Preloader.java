package io.tasklane.bench.internal;

import io.tasklane.bench.NoopHandler;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.WireCodec;
import java.time.Clock;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Fills the scheduler with far-future pending tasks by producing task records straight to {@code
 * <ns>.tasks} (the relay's output format), bypassing the database: scenarios that need a million
 * pending tasks measure the scheduler's capacity, not the relay's (measured in throughput).
 */
public final class Preloader {
  private Preloader() {}

  /** Produces {@code n} tasks due {@code dueInMs} from now; {@code progress} gets counts. */
  public static void preload(
      String bootstrap,
      String topic,
      long n,
      long dueInMs,
      java.util.function.LongConsumer progress)
      throws Exception {
    preload(bootstrap, topic, n, dueInMs, NoopHandler.NAME, 3, progress);
  }

  /** Produces {@code n} tasks of {@code handler} with {@code maxAttempts}, as above. */
  public static void preload(
      String bootstrap,
      String topic,
      long n,
      long dueInMs,
      String handler,
      int maxAttempts,
      java.util.function.LongConsumer progress)
      throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    Clock clock = Clock.systemUTC();
    try (var producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      long now = clock.millis();
      for (long i = 0; i < n; i++) {
        String id = TaskIds.keyless(clock);
        TaskEnvelope task =
            TaskEnvelope.builder()
                .id(id)
                .handler(handler)
                .dueAt(dueInMs <= 0 ? 0 : now + dueInMs + i % 60_000)
                .maxAttempts(maxAttempts)
                .timeoutMs(TaskEnvelope.DEFAULT_TIMEOUT_MS)
                .backoff(RetryPolicy.sidekiq())
                .createdAt(now)
                .build();
        producer.send(new ProducerRecord<>(topic, task.routingKey(), WireCodec.encode(task)));
        if (i % 10_000 == 9_999) {
          progress.accept(i + 1);
        }
      }
      producer.flush();
      progress.accept(n);
      producer.close(java.time.Duration.ofSeconds(30));
    }
  }
}
