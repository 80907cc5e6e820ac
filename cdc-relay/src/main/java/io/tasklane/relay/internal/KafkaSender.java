package io.tasklane.relay.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a batch and waits until Kafka acknowledged every record; while Kafka refuses, retries the
 * whole batch with exponential backoff (duplicates are harmless: task ids are stable) and a fresh
 * producer. Used by the engine's consumer thread only.
 */
final class KafkaSender implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaSender.class);

  private final KafkaClients clients;
  private final RelayMetrics metrics;
  private final Duration maxBackoff;
  private KafkaProducer<String, byte[]> producer;

  KafkaSender(KafkaClients clients, RelayMetrics metrics, Duration maxBackoff) {
    this.clients = clients;
    this.metrics = metrics;
    this.maxBackoff = maxBackoff;
  }

  /**
   * Returns when every record is acknowledged.
   *
   * @throws InterruptedException when interrupted or {@code stopping} turns true before success:
   *     the caller must then NOT mark the batch processed
   */
  void sendAll(List<ProducerRecord<String, byte[]>> records, BooleanSupplier stopping)
      throws InterruptedException {
    long backoffMs = 100;
    for (int attempt = 1; ; attempt++) {
      if (stopping.getAsBoolean() || Thread.currentThread().isInterrupted()) {
        throw new InterruptedException("relay stopping; batch not acknowledged");
      }
      try {
        trySend(records);
        return;
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        metrics.sendRetries.increment();
        LOG.warn(
            "Kafka did not acknowledge a batch of {} records (attempt {}), retrying in {} ms: {}",
            records.size(),
            attempt,
            backoffMs,
            e.toString());
        closeProducer();
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoffMs);
        while (System.nanoTime() < until) {
          if (stopping.getAsBoolean()) {
            throw new InterruptedException("relay stopping; batch not acknowledged");
          }
          Thread.sleep(Math.min(100, backoffMs));
        }
        backoffMs = Math.min(maxBackoff.toMillis(), backoffMs * 2);
      }
    }
  }

  private void trySend(List<ProducerRecord<String, byte[]>> records) throws Exception {
    if (records.isEmpty()) {
      return;
    }
    if (producer == null) {
      producer = clients.producer();
    }
    List<Future<RecordMetadata>> futures = new ArrayList<>(records.size());
    for (ProducerRecord<String, byte[]> r : records) {
      futures.add(producer.send(r));
    }
    producer.flush();
    for (Future<RecordMetadata> f : futures) {
      try {
        f.get();
      } catch (ExecutionException e) {
        throw e.getCause() instanceof Exception ex ? ex : e;
      }
    }
  }

  private void closeProducer() {
    if (producer != null) {
      try {
        producer.close(Duration.ZERO);
      } catch (RuntimeException e) {
        LOG.debug("closing a failed producer", e);
      }
      producer = null;
    }
  }

  @Override
  public void close() {
    if (producer != null) {
      producer.close(Duration.ofSeconds(5));
      producer = null;
    }
  }
}
