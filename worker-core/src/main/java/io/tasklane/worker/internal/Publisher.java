package io.tasklane.worker.internal;

import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskLogLine;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WorkerHeartbeat;
import io.tasklane.worker.spi.WorkerMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's one producer (acks=all, idempotent): results, log lines and dead letters. A result
 * or dead letter is re-sent after a retriable error (broker down, leader moving, timeout) until
 * acknowledged; the offset behind it is committed only then (also after an authorization or
 * authentication error, which an operator fixes). Any other error (e.g. {@code
 * RecordTooLargeException}) is never retried: a dead letter is re-sent once as a {@link
 * #TRUNCATED_BYTES truncated} copy; a result, or a truncated copy refused again, is logged, counted
 * and dropped, and the offset moves past it (a lost result costs the attempt: the scheduler
 * re-dispatches it at its deadline). After {@link #close} a record is given up and redelivered.
 * Callbacks run on the producer's I/O thread or the timer thread.
 */
final class Publisher {
  private static final Logger LOG = LoggerFactory.getLogger(Publisher.class);
  private static final long RESEND_DELAY_MS = 1_000;

  /** Bytes of the value, key and each error header a truncated dead letter keeps. */
  static final int TRUNCATED_BYTES = 1_024;

  /** Header of a truncated dead letter: what was cut and why. */
  static final String TRUNCATED_HEADER = ReservedHeaders.TRUNCATED;

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

  void result(
      String routingKey, TaskResult result, WorkerMetrics.HandlerMetrics metrics, Runnable onAck) {
    var record =
        new ProducerRecord<>(topics.results(), bytes(routingKey), WireCodec.encode(result));
    untilAcked(
        record, onAck, e -> drop(record, "result of task " + result.id(), e, metrics, onAck));
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

  /**
   * This worker's heartbeat (or, {@code heartbeat} null, its tombstone) on {@code <ns>.workers},
   * keyed by {@code workerId}; the future completes at the broker's ack.
   */
  java.util.concurrent.Future<?> heartbeat(String workerId, WorkerHeartbeat heartbeat) {
    byte[] value = heartbeat == null ? null : WireCodec.encode(heartbeat);
    return producer.send(
        new ProducerRecord<>(topics.workers(), bytes(workerId), value),
        (md, e) -> {
          if (e != null) {
            LOG.debug("heartbeat of {} not published: {}", workerId, e.toString());
          }
        });
  }

  /** Copies a poison record to the handler's DLT with error headers. */
  void deadLetter(
      String handler,
      ConsumerRecord<byte[], byte[]> rec,
      Throwable error,
      WorkerMetrics.HandlerMetrics metrics,
      Runnable onAck) {
    Headers own = new RecordHeaders();
    own.add(ReservedHeaders.ERROR_CLASS, bytes(error.getClass().getName()));
    own.add(ReservedHeaders.ERROR_MESSAGE, bytes(String.valueOf(error.getMessage())));
    own.add(ReservedHeaders.ORIGINAL_TOPIC, bytes(rec.topic()));
    own.add(ReservedHeaders.ORIGINAL_PARTITION, bytes(Integer.toString(rec.partition())));
    own.add(ReservedHeaders.ORIGINAL_OFFSET, bytes(Long.toString(rec.offset())));
    own.add(ReservedHeaders.WORKER, bytes(worker));
    String topic = topics.handlerDlt(handler);
    var full = new ProducerRecord<>(topic, rec.key(), rec.value());
    rec.headers().forEach(full.headers()::add);
    own.forEach(full.headers()::add);
    String what = "dead letter of " + rec.topic() + "-" + rec.partition() + "@" + rec.offset();
    untilAcked(
        full,
        onAck,
        e -> {
          var cut = truncated(topic, rec, own, e);
          LOG.warn("{} refused by the broker ({}); sending a truncated copy", what, e.toString());
          metrics.deadLetterTruncated();
          untilAcked(cut, onAck, again -> drop(cut, what + " (truncated)", again, metrics, onAck));
        });
  }

  private static ProducerRecord<byte[], byte[]> truncated(
      String topic, ConsumerRecord<byte[], byte[]> rec, Headers own, Exception why) {
    var out = new ProducerRecord<>(topic, cut(rec.key()), cut(rec.value()));
    for (Header h : own) {
      out.headers().add(h.key(), cut(h.value()));
    }
    String reason =
        "value of "
            + length(rec.value())
            + " bytes and key of "
            + length(rec.key())
            + " bytes cut to at most "
            + TRUNCATED_BYTES
            + ", the original headers dropped: the full copy was refused with "
            + why;
    out.headers().add(TRUNCATED_HEADER, cut(bytes(reason)));
    return out;
  }

  private void drop(
      ProducerRecord<byte[], byte[]> record,
      String what,
      Exception e,
      WorkerMetrics.HandlerMetrics metrics,
      Runnable onAck) {
    LOG.error(
        "{} to {} refused for good ({}); dropped, the offset moves past it",
        what,
        record.topic(),
        e);
    metrics.publishDropped();
    onAck.run();
  }

  /** Sends; retriable errors re-send later, any other error goes to {@code refused}. */
  private void untilAcked(
      ProducerRecord<byte[], byte[]> record, Runnable onAck, Consumer<Exception> refused) {
    try {
      producer.send(
          record,
          (md, e) -> {
            if (e == null) {
              onAck.run();
            } else {
              failed(record, onAck, refused, e);
            }
          });
    } catch (RuntimeException e) {
      failed(record, onAck, refused, e);
    }
  }

  private void failed(
      ProducerRecord<byte[], byte[]> record,
      Runnable onAck,
      Consumer<Exception> refused,
      Exception e) {
    if (!open) {
      LOG.error(
          "record for {} not acknowledged ({}) and the worker is closing: its offset stays"
              + " uncommitted and the dispatch will be redelivered",
          record.topic(),
          e.toString());
      return;
    }
    if (!worthRetrying(e)) {
      refused.accept(e);
      return;
    }
    LOG.warn("send to {} failed ({}); re-sending in {} ms", record.topic(), e, RESEND_DELAY_MS);
    try {
      timers.schedule(
          () -> untilAcked(record, onAck, refused), RESEND_DELAY_MS, TimeUnit.MILLISECONDS);
    } catch (RuntimeException rejected) {
      LOG.error("cannot schedule re-send to {}: {}", record.topic(), rejected.toString());
    }
  }

  /**
   * Errors that can pass without the record changing: retriable ones, an interrupted send, and
   * access errors an operator fixes (they hold up every record alike, as a broker outage does).
   * Anything else (too large, invalid record or topic...) fails again the same way.
   */
  static boolean worthRetrying(Exception e) {
    return e instanceof RetriableException
        || e instanceof InterruptException
        || e instanceof AuthorizationException
        || e instanceof AuthenticationException;
  }

  void close(Duration timeout) {
    open = false;
    producer.close(timeout);
  }

  private static byte[] cut(byte[] b) {
    return b == null || b.length <= TRUNCATED_BYTES ? b : Arrays.copyOf(b, TRUNCATED_BYTES);
  }

  private static int length(byte[] b) {
    return b == null ? 0 : b.length;
  }

  private static byte[] bytes(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }
}
