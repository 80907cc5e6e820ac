package io.tasklane.outbox;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;

/** The only class touching OpenTelemetry; loaded only when its API is on the classpath. */
final class OtelTraceparent {
  private OtelTraceparent() {}

  /** The current span's traceparent, or null when no valid span is current. */
  static String current() {
    SpanContext context = Span.current().getSpanContext();
    if (!context.isValid()) {
      return null;
    }
    return TraceHeaders.format(
        context.getTraceId(), context.getSpanId(), context.getTraceFlags().asHex());
  }
}
