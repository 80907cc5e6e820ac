package io.tasklane.scheduler.internal.topology;

import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.SchedulerMetrics;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the scheduler does when Kafka Streams cannot write one of its output records. Errors that no
 * retry can cure — a record over the producer's {@code max.request.size} or the topic's {@code
 * max.message.bytes}, or a record its serializer refuses — are logged with the topic and size,
 * counted ({@code produce.too-large}, {@code produce.unserializable}) and skipped: failing would
 * kill the stream thread, and its replacement would replay the same input into the same error
 * forever. Every other error (a broker or network fault) fails as by default, so Streams replays
 * from the last commit and nothing is lost.
 *
 * <p>What a skipped record means: a dispatch is not lost for good, its attempt times out at its
 * deadline and is retried, then goes DEAD (a task that can never be dispatched); a dead letter is
 * lost but the DEAD record stays in the store; a control record ({@code await}, {@code
 * dependency-done}) of that size cannot be produced by the scheduler (ids only). Instantiated by
 * Kafka Streams ({@code default.production.exception.handler}); the metrics come in through {@link
 * #METRICS_CONFIG}.
 */
public final class OutputErrors implements ProductionExceptionHandler {
  /** The Streams config key that carries the {@link SchedulerMetrics} instance. */
  public static final String METRICS_CONFIG = "tasklane.scheduler.internal.metrics";

  private static final Logger LOG = LoggerFactory.getLogger(OutputErrors.class);

  private SchedulerMetrics metrics = SchedulerMetrics.NOOP;

  @Override
  public void configure(Map<String, ?> configs) {
    if (configs.get(METRICS_CONFIG) instanceof SchedulerMetrics m) {
      metrics = m;
    }
  }

  @Override
  public ProductionExceptionHandlerResponse handle(
      ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
    if (exception instanceof RecordTooLargeException
        || exception instanceof RecordBatchTooLargeException) {
      LOG.error(
          "skipped an output record to {} of {} bytes (key {}), input {}-{}@{}: {}; a dispatch"
              + " times out and is retried, then goes DEAD",
          record.topic(),
          size(record),
          key(record),
          context.topic(),
          context.partition(),
          context.offset(),
          exception.getMessage());
      metrics.count(SchedulerEvent.PRODUCE_TOO_LARGE);
      return ProductionExceptionHandlerResponse.CONTINUE;
    }
    return ProductionExceptionHandlerResponse.FAIL;
  }

  @Override
  @SuppressWarnings("rawtypes")
  public ProductionExceptionHandlerResponse handleSerializationException(
      ErrorHandlerContext context,
      ProducerRecord record,
      Exception exception,
      SerializationExceptionOrigin origin) {
    LOG.error(
        "skipped an output record to {} whose {} cannot be serialized, input {}-{}@{}",
        record.topic(),
        origin,
        context.topic(),
        context.partition(),
        context.offset(),
        exception);
    metrics.count(SchedulerEvent.PRODUCE_UNSERIALIZABLE);
    return ProductionExceptionHandlerResponse.CONTINUE;
  }

  private static int size(ProducerRecord<byte[], byte[]> r) {
    return (r.key() == null ? 0 : r.key().length) + (r.value() == null ? 0 : r.value().length);
  }

  private static String key(ProducerRecord<byte[], byte[]> r) {
    return r.key() == null ? null : new String(r.key(), java.nio.charset.StandardCharsets.UTF_8);
  }
}
