package io.tasklane.worker.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The offsets of one {@link HandlerConsumer}: which records are taken and not yet acknowledged, and
 * commits per partition up to the lowest unacknowledged offset. {@link #completed} is called from
 * any thread (usually the producer's, when a result or dead letter is acknowledged); everything
 * else runs on the consumer thread.
 */
final class Commits {
  private static final Logger LOG = LoggerFactory.getLogger(Commits.class);

  /**
   * Asynchronous offset commits happen at most this often (a commit per poll costs the worker and
   * the broker a request per few records; a crash re-delivers at most this much, absorbed by task
   * ids). Revocation and shutdown commit synchronously at once.
   */
  private static final long ASYNC_COMMIT_INTERVAL_NANOS = Duration.ofMillis(200).toNanos();

  private record Done(TopicPartition partition, long offset) {}

  private final String handlerName;
  private final Consumer<byte[], byte[]> consumer;
  private final LinkedBlockingQueue<Done> done = new LinkedBlockingQueue<>();
  private final OffsetLedger ledger = new OffsetLedger();

  /** Taken from Kafka, result not yet acknowledged. */
  private final AtomicInteger unacked = new AtomicInteger();

  private long lastAsyncCommit = System.nanoTime();

  Commits(String handlerName, Consumer<byte[], byte[]> consumer) {
    this.handlerName = handlerName;
    this.consumer = consumer;
  }

  /** Consumer thread: the record at {@code offset} is handed to the pool. */
  void started(TopicPartition tp, long offset) {
    ledger.started(tp, offset);
    unacked.incrementAndGet();
  }

  /** Any thread: the record's result or dead letter was acknowledged. */
  void completed(TopicPartition tp, long offset) {
    done.add(new Done(tp, offset));
  }

  /** Records taken whose result is not yet acknowledged; any thread. */
  int unacked() {
    return unacked.get();
  }

  /** Whether acknowledgements wait to be applied by {@link #drain}. */
  boolean hasCompletions() {
    return !done.isEmpty();
  }

  /** Consumer thread: applies the acknowledgements received so far. */
  void drain() {
    for (Done d; (d = done.poll()) != null; ) {
      apply(d);
    }
  }

  /** Consumer thread: an asynchronous commit of every partition, at most every 200 ms. */
  void commitIfDue() {
    long now = System.nanoTime();
    if (now - lastAsyncCommit >= ASYNC_COMMIT_INTERVAL_NANOS) {
      lastAsyncCommit = now;
      commit(false, tp -> true);
    }
  }

  /** Consumer thread: commits the partitions matched, synchronously or not. */
  void commit(boolean sync, Predicate<TopicPartition> which) {
    Map<TopicPartition, OffsetAndMetadata> offsets = ledger.committable(which);
    if (offsets.isEmpty()) {
      return;
    }
    if (sync) {
      try {
        consumer.commitSync(offsets, Duration.ofSeconds(10));
      } catch (WakeupException e) {
        consumer.commitSync(offsets, Duration.ofSeconds(10)); // a stale wake-up, not a stop
      }
    } else {
      consumer.commitAsync(
          offsets,
          (o, e) -> {
            if (e != null) {
              ledger.commitFailed(o.keySet());
              LOG.warn("offset commit of {} failed (retried later): {}", handlerName, e.toString());
            }
          });
    }
    ledger.committed(offsets);
  }

  /** Consumer thread: waits (applying acknowledgements) until the partitions matched are idle. */
  void awaitIdle(Predicate<TopicPartition> which, long deadline) throws InterruptedException {
    while (ledger.busy(which)) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return;
      }
      Done d = done.poll(Math.min(left, 100), TimeUnit.MILLISECONDS);
      if (d != null) {
        apply(d);
      }
    }
  }

  /** Consumer thread: forgets revoked or lost partitions. */
  void remove(Collection<TopicPartition> partitions) {
    ledger.remove(partitions);
  }

  /** Consumer thread: records taken and not finished. */
  int pending() {
    return ledger.pending();
  }

  private void apply(Done d) {
    unacked.decrementAndGet();
    ledger.completed(d.partition(), d.offset());
  }
}
