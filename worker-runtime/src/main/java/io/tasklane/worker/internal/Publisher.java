package io.tasklane.worker.internal;

import io.tasklane.core.TaskLogLine;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's one producer (acks=all, idempotent): results, log lines and dead letters. A result
 * or dead letter is re-sent until acknowledged (the offset behind it is committed only then); after
 * {@link #close} it is given up and the record will be redelivered.
 */
final class Publisher {
  private static final Logger LOG = LoggerFactory.getLogger(Publisher.class);
  private static final long RESEND_DELAY_MS = 1_000;

  private final Producer<byte[], byte[]> producer;
  private final Topics topics;
  private final String worker;
  private final ScheduledExecutorService timers;
  private volatile boolean open = true;

  Publisher(
      Producer<byte[], byte[]> producer,
      Topics topics,
      String worker,
      ScheduledExecutorService timers) {
    this.producer = producer;
    this.topics = topics;
    this.worker = worker;
    this.timers = timers;
  }

  void result(String routingKey, TaskResult result, Runnable onAck) {
    untilAcked(
        new ProducerRecord<>(topics.results(), bytes(routingKey), WireCodec.encode(result)), onAck);
  }

  void log(TaskLogLine line) {
    try {
      producer.send(
          new ProducerRecord<>(topics.logs(), bytes(line.id()), WireCodec.encode(line)),
          (md, e) -> {
            if (e != null) {
              LOG.debug("log line of task {} not published: {}", line.id(), e.toString());
            }
          });
    } catch (RuntimeException e) {
      LOG.debug("log line of task {} not published: {}", line.id(), e.toString());
    }
  }

  /** Copies a poison record to the handler's DLT with error headers. */
  void deadLetter(
      String handler, ConsumerRecord<byte[], byte[]> rec, Throwable error, Runnable onAck) {
    var out = new ProducerRecord<>(topics.handlerDlt(handler), rec.key(), rec.value());
    Headers h = out.headers();
    rec.headers().forEach(h::add);
    h.add("tasklane.error.class", bytes(error.getClass().getName()));
    h.add("tasklane.error.message", bytes(String.valueOf(error.getMessage())));
    h.add("tasklane.original.topic", bytes(rec.topic()));
    h.add("tasklane.original.partition", bytes(Integer.toString(rec.partition())));
    h.add("tasklane.original.offset", bytes(Long.toString(rec.offset())));
    h.add("tasklane.worker", bytes(worker));
    untilAcked(out, onAck);
  }

  private void untilAcked(ProducerRecord<byte[], byte[]> record, Runnable onAck) {
    try {
      producer.send(
          record,
          (md, e) -> {
            if (e == null) {
              onAck.run();
            } else {
              retry(record, onAck, e);
            }
          });
    } catch (RuntimeException e) {
      retry(record, onAck, e);
    }
  }

  private void retry(ProducerRecord<byte[], byte[]> record, Runnable onAck, Exception e) {
    if (!open) {
      LOG.error(
          "record for {} not acknowledged ({}) and the worker is closing: its offset stays"
              + " uncommitted and the dispatch will be redelivered",
          record.topic(),
          e.toString());
      return;
    }
    LOG.warn("send to {} failed ({}); re-sending in {} ms", record.topic(), e, RESEND_DELAY_MS);
    try {
      timers.schedule(() -> untilAcked(record, onAck), RESEND_DELAY_MS, TimeUnit.MILLISECONDS);
    } catch (RuntimeException rejected) {
      LOG.error("cannot schedule re-send to {}: {}", record.topic(), rejected.toString());
    }
  }

  void close(Duration timeout) {
    open = false;
    producer.close(timeout);
  }

  private static byte[] bytes(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }
}
