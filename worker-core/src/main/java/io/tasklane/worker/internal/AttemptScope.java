package io.tasklane.worker.internal;

import static io.tasklane.core.tracing.SpanKeys.ATTEMPT;
import static io.tasklane.core.tracing.SpanKeys.DESTINATION;
import static io.tasklane.core.tracing.SpanKeys.HANDLER;
import static io.tasklane.core.tracing.SpanKeys.KEY;
import static io.tasklane.core.tracing.SpanKeys.OFFSET;
import static io.tasklane.core.tracing.SpanKeys.OPERATION_NAME;
import static io.tasklane.core.tracing.SpanKeys.OPERATION_TYPE;
import static io.tasklane.core.tracing.SpanKeys.PARTITION;
import static io.tasklane.core.tracing.SpanKeys.SYSTEM;
import static io.tasklane.core.tracing.SpanKeys.TASK_ID;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.tasklane.core.Dispatch;
import io.tasklane.core.tracing.SpanKeys;
import io.tasklane.core.tracing.Tracing;
import io.tasklane.worker.TaskMdc;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
    if (!tracing.enabled()) {
      return new AttemptScope(Span.getInvalid(), Scope.noop()); // no span to make current
    }
    Span span = start(tracing, dispatch, handler, record);
    return new AttemptScope(span, span.makeCurrent());
  }

  private static Span start(
      Tracing tracing, Dispatch dispatch, String handler, ConsumerRecord<byte[], byte[]> record) {
    W3CTraceContextPropagator w3c = W3CTraceContextPropagator.getInstance();
    Context enqueue = SpanKeys.parentOf(dispatch.task().headers());
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
