package io.tasklane.relay.internal;

import static io.tasklane.core.tracing.SpanKeys.DESTINATION;
import static io.tasklane.core.tracing.SpanKeys.HANDLER;
import static io.tasklane.core.tracing.SpanKeys.KEY;
import static io.tasklane.core.tracing.SpanKeys.OPERATION_NAME;
import static io.tasklane.core.tracing.SpanKeys.OPERATION_TYPE;
import static io.tasklane.core.tracing.SpanKeys.SYSTEM;
import static io.tasklane.core.tracing.SpanKeys.TASK_ID;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.tracing.SpanKeys;
import io.tasklane.core.tracing.Tracing;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The spans of one batch: a {@code publish <ns>.tasks} span per relayed task row, a child of the
 * enqueue span named by the row's {@code traceparent} header, from the row's mapping until Kafka
 * acknowledged the batch. A row Kafka refused, that went to the relay DLT instead, or whose batch
 * was abandoned (leadership lost, relay stopping) ends with status ERROR. Used by the engine's
 * consumer thread only; tracing off, it records nothing.
 */
final class PublishSpans {
  static final AttributeKey<Long> ROW_ID = AttributeKey.longKey("tasklane.outbox.row.id");

  private final Tracing tracing;
  private final List<Span> spans = new ArrayList<>(); // per record of the batch, null: none
  private final List<String> topics = new ArrayList<>(); // per record: where it was sent

  PublishSpans(Tracing tracing) {
    this.tracing = tracing;
  }

  /** The next record of the batch carries no task (dead letter, cancel): no span. */
  void none() {
    spans.add(null);
    topics.add(null);
  }

  /** The next record of the batch relays task {@code row}. */
  void task(OutboxRow row, ProducerRecord<String, byte[]> record) {
    topics.add(record.topic());
    if (!tracing.enabled()) {
      spans.add(null);
      return;
    }
    Context parent = SpanKeys.parentOf(Map.of(ReservedHeaders.TRACEPARENT, traceparent(row)));
    spans.add(
        tracing
            .tracer()
            .spanBuilder("publish " + record.topic())
            .setSpanKind(SpanKind.PRODUCER)
            .setParent(parent)
            .setAttribute(SYSTEM, "kafka")
            .setAttribute(DESTINATION, record.topic())
            .setAttribute(OPERATION_TYPE, "publish")
            .setAttribute(OPERATION_NAME, "publish")
            .setAttribute(KEY, record.key())
            .setAttribute(TASK_ID, row.taskId())
            .setAttribute(HANDLER, row.handler())
            .setAttribute(ROW_ID, row.id())
            .startSpan());
  }

  /** Kafka acknowledged {@code acked} (per index: the record sent, or null when dropped). */
  void acknowledged(List<ProducerRecord<String, byte[]>> acked) {
    for (int i = 0; i < spans.size(); i++) {
      Span span = spans.get(i);
      if (span == null) {
        continue;
      }
      ProducerRecord<String, byte[]> r = i < acked.size() ? acked.get(i) : null;
      if (r == null) {
        span.setStatus(StatusCode.ERROR, "dropped: Kafka refused the record and its dead letter");
      } else if (!r.topic().equals(topics.get(i))) {
        span.setStatus(StatusCode.ERROR, "refused by Kafka; dead-lettered to " + r.topic());
      }
      span.end();
    }
    clear();
  }

  /** The batch was not acknowledged (relay stopping, leadership lost, engine failing). */
  void abandoned(Throwable why) {
    for (Span span : spans) {
      if (span != null) {
        span.setStatus(StatusCode.ERROR, "batch not acknowledged");
        span.recordException(why);
        span.end();
      }
    }
    clear();
  }

  private void clear() {
    spans.clear();
    topics.clear();
  }

  /** The row's traceparent header, or "" when it has none or its headers are not JSON. */
  private static String traceparent(OutboxRow row) {
    if (row.headers() == null) {
      return "";
    }
    try {
      JsonNode value = WireCodec.readTree(row.headers()).get(ReservedHeaders.TRACEPARENT);
      return value == null || !value.isTextual() ? "" : value.asText();
    } catch (RuntimeException e) {
      return ""; // the mapper already judged the row; tracing never rejects one
    }
  }
}
