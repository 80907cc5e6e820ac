package io.tasklane.worker.internal;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.tasklane.core.Dispatch;
import io.tasklane.core.tracing.Tracing;
import io.tasklane.worker.TaskMdc;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.slf4j.MDC;

/**
 * What surrounds one handler call on its pool thread: the attempt's span ({@code process <handler
 * topic>}, a child of the enqueue span named by the task's {@code traceparent} header, linked to
 * the scheduler's dispatch span named by the record's {@code traceparent} header), current while
 * the handler runs, and the {@link TaskMdc} keys in the SLF4J MDC. {@link #close()} undoes both on
 * the same thread, also when the handler threw. Not thread-safe: opened and closed by the handler's
 * thread.
 */
final class AttemptScope implements AutoCloseable {
  static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
  static final AttributeKey<String> DESTINATION =
      AttributeKey.stringKey("messaging.destination.name");
  static final AttributeKey<String> OPERATION_TYPE =
      AttributeKey.stringKey("messaging.operation.type");
  static final AttributeKey<String> OPERATION_NAME =
      AttributeKey.stringKey("messaging.operation.name");
  static final AttributeKey<String> KEY = AttributeKey.stringKey("messaging.kafka.message.key");
  static final AttributeKey<String> PARTITION =
      AttributeKey.stringKey("messaging.destination.partition.id");
  static final AttributeKey<Long> OFFSET = AttributeKey.longKey("messaging.kafka.offset");
  static final AttributeKey<String> TASK_ID = AttributeKey.stringKey("tasklane.task.id");
  static final AttributeKey<String> HANDLER = AttributeKey.stringKey("tasklane.handler");
  static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("tasklane.attempt");

  private static final TextMapGetter<Map<String, String>> MAP_GETTER =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
          return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
          return carrier == null ? null : carrier.get(key);
        }
      };

  private static final TextMapGetter<ConsumerRecord<byte[], byte[]>> RECORD_GETTER =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(ConsumerRecord<byte[], byte[]> carrier) {
          return List.of();
        }

        @Override
        public String get(ConsumerRecord<byte[], byte[]> carrier, String key) {
          Header h = carrier == null ? null : carrier.headers().lastHeader(key);
          return h == null || h.value() == null
              ? null
              : new String(h.value(), StandardCharsets.UTF_8);
        }
      };

  private final Span span;
  private final Scope scope;

  private AttemptScope(Span span, Scope scope) {
    this.span = span;
    this.scope = scope;
  }

  /** Opens the attempt's span and MDC on the calling (handler) thread. */
  static AttemptScope open(
      Tracing tracing, Dispatch dispatch, String handler, ConsumerRecord<byte[], byte[]> record) {
    MDC.put(TaskMdc.TASK_ID, dispatch.id());
    MDC.put(TaskMdc.HANDLER, handler);
    MDC.put(TaskMdc.ATTEMPT, String.valueOf(dispatch.attempt()));
    Span span = tracing.enabled() ? start(tracing, dispatch, handler, record) : Span.getInvalid();
    return new AttemptScope(span, span.makeCurrent());
  }

  private static Span start(
      Tracing tracing, Dispatch dispatch, String handler, ConsumerRecord<byte[], byte[]> record) {
    W3CTraceContextPropagator w3c = W3CTraceContextPropagator.getInstance();
    Context enqueue = w3c.extract(Context.root(), dispatch.task().headers(), MAP_GETTER);
    var builder =
        tracing
            .tracer()
            .spanBuilder("process " + record.topic())
            .setSpanKind(SpanKind.CONSUMER)
            .setParent(enqueue)
            .setAttribute(SYSTEM, "kafka")
            .setAttribute(DESTINATION, record.topic())
            .setAttribute(OPERATION_TYPE, "process")
            .setAttribute(OPERATION_NAME, "process")
            .setAttribute(PARTITION, String.valueOf(record.partition()))
            .setAttribute(OFFSET, record.offset())
            .setAttribute(TASK_ID, dispatch.id())
            .setAttribute(HANDLER, handler)
            .setAttribute(ATTEMPT, (long) dispatch.attempt());
    if (record.key() != null) {
      builder.setAttribute(KEY, new String(record.key(), StandardCharsets.UTF_8));
    }
    SpanContext dispatchSpan =
        Span.fromContext(w3c.extract(Context.root(), record, RECORD_GETTER)).getSpanContext();
    if (dispatchSpan.isValid()) {
      builder.addLink(dispatchSpan);
    }
    return builder.startSpan();
  }

  /** The handler threw: the span's status is ERROR and it records {@code error}. */
  void failed(Throwable error) {
    span.setStatus(StatusCode.ERROR, error.getClass().getSimpleName());
    span.recordException(error);
  }

  /** Ends the span and clears the MDC keys; on the thread that opened this scope. */
  @Override
  public void close() {
    try {
      scope.close();
      span.end();
    } finally {
      MDC.remove(TaskMdc.TASK_ID);
      MDC.remove(TaskMdc.HANDLER);
      MDC.remove(TaskMdc.ATTEMPT);
    }
  }
}
