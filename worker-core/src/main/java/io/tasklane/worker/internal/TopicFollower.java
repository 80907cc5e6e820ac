package io.tasklane.worker.internal;

import io.tasklane.core.LogText;
import io.tasklane.core.WireFormatException;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker thread following one small topic without a consumer group (every worker sees every
 * record; nothing is committed), every partition assigned, from its end or its beginning, handing
 * each record to {@code apply} on this thread: {@code <ns>.interrupts} from the end (thread {@code
 * tasklane-worker-interrupts}, {@link RunningAttempts} stops the matching attempt) and {@code
 * <ns>.handler-settings} from the beginning (thread {@code tasklane-worker-settings}, pools
 * resized). Never runs handler code; a record {@code apply} cannot decode or apply is logged and
 * skipped, and the rest of its batch is applied.
 */
final class TopicFollower implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(TopicFollower.class);
  private static final Duration POLL = Duration.ofMillis(200);

  private final Consumer<byte[], byte[]> consumer;
  private final String topic;
  private final boolean fromEnd;
  private final java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> apply;
  private volatile boolean running = true;

  TopicFollower(
      Consumer<byte[], byte[]> consumer,
      String topic,
      boolean fromEnd,
      java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> apply) {
    this.consumer = consumer;
    this.topic = topic;
    this.fromEnd = fromEnd;
    this.apply = apply;
  }

  /**
   * Start-up thread, before the handlers' consumers start: assigns every partition at its end (so
   * that a record written from now on is seen) or its beginning.
   */
  void assign() {
    List<TopicPartition> parts =
        consumer.partitionsFor(topic).stream()
            .map(p -> new TopicPartition(topic, p.partition()))
            .toList();
    consumer.assign(parts);
    if (fromEnd) {
      consumer.seekToEnd(parts);
      parts.forEach(consumer::position); // resolve the end now, not at the first poll
    } else {
      consumer.seekToBeginning(parts);
    }
  }

  @Override
  public void run() {
    try {
      while (running) {
        try {
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
            apply(r);
          }
        } catch (WakeupException e) {
          // stop() woke the poll
        } catch (RuntimeException e) {
          LOG.warn("reading {} failed; continuing: {}", topic, e.toString());
          pause();
        }
      }
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  private void apply(ConsumerRecord<byte[], byte[]> r) {
    try {
      apply.accept(r);
    } catch (WireFormatException e) {
      LOG.warn(
          "skipping {}-{}@{} (key {}): {}",
          r.topic(),
          r.partition(),
          r.offset(),
          LogText.escape(r.key()),
          LogText.escape(e.getMessage(), 1_000));
    } catch (RuntimeException e) {
      // One record that cannot be applied must not cost the rest of the poll's batch.
      LOG.warn(
          "skipping {}-{}@{} (key {}): applying it failed: {}",
          r.topic(),
          r.partition(),
          r.offset(),
          LogText.escape(r.key()),
          LogText.escape(e.toString(), 1_000));
    }
  }

  private void pause() {
    try {
      Thread.sleep(500);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  /** Any thread: stop reading and close the consumer. */
  void stop() {
    running = false;
    consumer.wakeup();
  }
}
