package io.tasklane.scheduler.internal.lifecycle;

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
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.tracing.SpanKeys;
import io.tasklane.core.tracing.Tracing;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The scheduler's spans, each a child of the enqueue span named by the task's {@code traceparent}
 * header: {@code admit <ns>.tasks} while a task record is admitted and stored, and {@code publish
 * <ns>.handler.<handler>} for each dispatch, whose context goes into the dispatch record's {@code
 * traceparent} header so the worker's attempt span links to it. Used on the stream threads
 * (processing and punctuation); thread-safe. Tracing off, every call is a no-op.
 */
public final class TaskSpans {

  /** The record header carrying the dispatch span's W3C context. */
  static final String TRACEPARENT = ReservedHeaders.TRACEPARENT;

  private final Tracing tracing;

  public TaskSpans(Tracing tracing) {
    this.tracing = tracing;
  }

  /** Runs {@code admission} of {@code task} (read from {@code source}) inside its span. */
  public void admit(TaskEnvelope task, String key, RecordMetadata source, Runnable admission) {
    if (!tracing.enabled()) {
      admission.run();
      return;
    }
    String topic = source == null ? "tasks" : source.topic();
    var builder =
        tracing
            .tracer()
            .spanBuilder("admit " + topic)
            .setSpanKind(SpanKind.CONSUMER)
            .setParent(enqueue(task))
            .setAttribute(SYSTEM, "kafka")
            .setAttribute(DESTINATION, topic)
            .setAttribute(OPERATION_TYPE, "process")
            .setAttribute(OPERATION_NAME, "admit")
            .setAttribute(KEY, key)
            .setAttribute(TASK_ID, task.id())
            .setAttribute(HANDLER, task.handler());
    if (source != null) {
      builder
          .setAttribute(PARTITION, String.valueOf(source.partition()))
          .setAttribute(OFFSET, source.offset());
    }
    Span span = builder.startSpan();
    try {
      admission.run();
    } catch (RuntimeException e) {
      span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
      span.recordException(e);
      throw e;
    } finally {
      span.end();
    }
  }

  /**
   * The span of {@code dispatch} to {@code topic} (started and ended here: the record leaves with
   * the stream task's next commit); returns the headers for the dispatch record, or null when
   * tracing is off.
   */
  RecordHeaders dispatched(Dispatch dispatch, String topic) {
    if (!tracing.enabled()) {
      return null;
    }
    Span span =
        tracing
            .tracer()
            .spanBuilder("publish " + topic)
            .setSpanKind(SpanKind.PRODUCER)
            .setParent(enqueue(dispatch.task()))
            .setAttribute(SYSTEM, "kafka")
            .setAttribute(DESTINATION, topic)
            .setAttribute(OPERATION_TYPE, "publish")
            .setAttribute(OPERATION_NAME, "publish")
            .setAttribute(KEY, dispatch.id())
            .setAttribute(TASK_ID, dispatch.id())
            .setAttribute(HANDLER, dispatch.task().handler())
            .setAttribute(ATTEMPT, (long) dispatch.attempt())
            .startSpan();
    RecordHeaders headers = new RecordHeaders();
    W3CTraceContextPropagator.getInstance()
        .inject(
            Context.root().with(span),
            headers,
            (h, k, v) -> h.add(k, v.getBytes(StandardCharsets.UTF_8)));
    span.end();
    return headers;
  }

  private static Context enqueue(TaskEnvelope task) {
    return SpanKeys.parentOf(task.headers());
  }
}
