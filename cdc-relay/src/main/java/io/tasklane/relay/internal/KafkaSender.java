package io.tasklane.relay.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a batch and waits until Kafka acknowledged every record. A record Kafka refuses for good
 * because of the record itself ({@link #refusedForGood}: too large, invalid) is replaced by what
 * {@link Refusals} gives (its dead letter) and the rest of the batch goes on. Any other failure
 * (Kafka down, timeouts, authorization, ...) is about Kafka, not the record: the whole batch is
 * retried with exponential backoff and a fresh producer, forever (duplicates are harmless: task ids
 * are stable). Used by the engine's consumer thread only.
 */
final class KafkaSender implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaSender.class);

  /**
   * How long a batch may stay unacknowledged before the sender checks that its topics still exist
   * (a deleted topic otherwise shows only as a timeout after {@code delivery.timeout.ms}).
   */
  static final Duration TOPIC_CHECK_GRACE = Duration.ofSeconds(5);

  /** What to send instead of a record Kafka refused for good. */
  @FunctionalInterface
  interface Refusals {
    /**
     * @param times how often this index was refused (1 for the original record)
     * @return the replacement, or null to drop the index
     */
    ProducerRecord<String, byte[]> replace(
        int index, ProducerRecord<String, byte[]> refused, Exception error, int times);
  }

  private final KafkaClients clients;
  private final RelayMetrics metrics;
  private final Duration maxBackoff;
  private final TopicGuard topics;
  private KafkaProducer<String, byte[]> producer;

  KafkaSender(KafkaClients clients, RelayMetrics metrics, Duration maxBackoff) {
    this(clients, metrics, maxBackoff, null);
  }

  /**
   * @param topics recreates a topic deleted while the relay runs (null: never)
   */
  KafkaSender(KafkaClients clients, RelayMetrics metrics, Duration maxBackoff, TopicGuard topics) {
    this.clients = clients;
    this.metrics = metrics;
    this.maxBackoff = maxBackoff;
    this.topics = topics;
  }

  /** True for errors caused by the record itself, which no retry can fix. */
  static boolean refusedForGood(Throwable e) {
    return e instanceof RecordTooLargeException
        || e instanceof RecordBatchTooLargeException
        || e instanceof InvalidRecordException
        || e instanceof InvalidTimestampException
        || e instanceof SerializationException;
  }

  /**
   * Returns when every record (or its replacement) is acknowledged.
   *
   * @return per index, the record Kafka acknowledged: the original, its replacement, or null when
   *     {@code refusals} dropped it
   * @throws InterruptedException when interrupted or {@code stopping} turns true before success:
   *     the caller must then NOT mark the batch processed
   */
  List<ProducerRecord<String, byte[]>> sendAll(
      List<ProducerRecord<String, byte[]>> records, Refusals refusals, BooleanSupplier stopping)
      throws InterruptedException {
    List<ProducerRecord<String, byte[]>> current = new ArrayList<>(records);
    int[] refusedTimes = new int[records.size()];
    List<Integer> pending = indices(current);
    long backoffMs = 100;
    for (int attempt = 1; !pending.isEmpty(); attempt++) {
      checkStopping(stopping);
      Map<Integer, Exception> failures = trySend(current, pending);
      List<Integer> replaced = new ArrayList<>();
      Exception retryCause = null;
      for (var f : failures.entrySet()) {
        int i = f.getKey();
        if (refusedForGood(f.getValue())) {
          var replacement = refusals.replace(i, current.get(i), f.getValue(), ++refusedTimes[i]);
          current.set(i, replacement);
          if (replacement != null) {
            replaced.add(i);
          }
        } else {
          retryCause = f.getValue();
        }
      }
      if (retryCause == null) {
        pending = replaced; // only the replacements are still unacknowledged
        continue;
      }
      if (topics != null && !(retryCause instanceof MissingTopicException)) {
        topics.recreateMissing(topicsOf(current)); // e.g. "not present in metadata" after a delete
      }
      metrics.sendRetries.increment();
      LOG.warn(
          "Kafka did not acknowledge a batch of {} records (attempt {}), retrying in {} ms: {}",
          records.size(),
          attempt,
          backoffMs,
          retryCause.toString());
      closeProducer();
      pause(backoffMs, stopping);
      backoffMs = Math.min(maxBackoff.toMillis(), backoffMs * 2);
      pending = indices(current); // the whole batch again, in order
    }
    if (topics != null && !metrics.missingTopics.get().isEmpty()) {
      metrics.missingTopics.set(List.of());
    }
    return current;
  }

  /** A batch found a topic missing: recreated (or not), the batch is retried. */
  static final class MissingTopicException extends RuntimeException {
    MissingTopicException(Set<String> topics) {
      super("topic(s) " + topics + " did not exist while the batch waited for acknowledgements");
    }
  }

  private static Set<String> topicsOf(List<ProducerRecord<String, byte[]>> records) {
    Set<String> out = new LinkedHashSet<>();
    records.forEach(
        r -> {
          if (r != null) {
            out.add(r.topic());
          }
        });
    return out;
  }

  /** Waits up to {@code grace} for every future; true when all are done (acked or failed). */
  private static boolean awaitAll(Collection<Future<RecordMetadata>> futures, Duration grace)
      throws InterruptedException {
    long deadline = System.nanoTime() + grace.toNanos();
    for (Future<RecordMetadata> f : futures) {
      long left = deadline - System.nanoTime();
      if (left <= 0 && !f.isDone()) {
        return false;
      }
      try {
        f.get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        // done; read again below
      } catch (java.util.concurrent.TimeoutException e) {
        return false;
      }
    }
    return true;
  }

  /** Failures by index; a failure before any record was sent counts for every pending index. */
  private Map<Integer, Exception> trySend(
      List<ProducerRecord<String, byte[]>> records, List<Integer> pending)
      throws InterruptedException {
    Map<Integer, Exception> failures = new LinkedHashMap<>();
    Map<Integer, Future<RecordMetadata>> futures = new LinkedHashMap<>();
    try {
      if (producer == null) {
        producer = clients.producer();
      }
      for (int i : pending) {
        try {
          futures.put(i, producer.send(records.get(i)));
        } catch (InterruptException e) {
          throw e;
        } catch (RuntimeException e) {
          failures.put(i, e);
        }
      }
      if (topics != null && !awaitAll(futures.values(), TOPIC_CHECK_GRACE)) {
        List<ProducerRecord<String, byte[]>> sent = new ArrayList<>();
        pending.forEach(i -> sent.add(records.get(i)));
        Set<String> missing = topics.recreateMissing(topicsOf(sent));
        if (!missing.isEmpty()) {
          closeProducer(); // its records for the deleted topic would only expire; start afresh
          var e = new MissingTopicException(missing);
          pending.forEach(i -> failures.putIfAbsent(i, e));
          return failures;
        }
      }
      producer.flush();
    } catch (InterruptException e) {
      throw interrupted(e);
    } catch (RuntimeException e) {
      pending.stream().filter(i -> !failures.containsKey(i)).forEach(i -> failures.put(i, e));
      return failures;
    }
    for (var f : futures.entrySet()) {
      try {
        f.getValue().get();
      } catch (ExecutionException e) {
        failures.put(f.getKey(), e.getCause() instanceof Exception ex ? ex : e);
      }
    }
    return failures;
  }

  private static List<Integer> indices(List<ProducerRecord<String, byte[]>> records) {
    List<Integer> out = new ArrayList<>(records.size());
    for (int i = 0; i < records.size(); i++) {
      if (records.get(i) != null) {
        out.add(i);
      }
    }
    return out;
  }

  private static void checkStopping(BooleanSupplier stopping) throws InterruptedException {
    if (stopping.getAsBoolean() || Thread.currentThread().isInterrupted()) {
      throw new InterruptedException("relay stopping; batch not acknowledged");
    }
  }

  private static void pause(long ms, BooleanSupplier stopping) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    while (System.nanoTime() < until) {
      checkStopping(stopping);
      Thread.sleep(Math.min(100, ms));
    }
  }

  private static InterruptedException interrupted(InterruptException e) {
    var ie = new InterruptedException("interrupted while sending a batch");
    ie.initCause(e);
    return ie;
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
