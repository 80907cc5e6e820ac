package io.tasklane.outbox;

import io.tasklane.core.ReservedHeaders;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds the W3C {@code traceparent} of the current OpenTelemetry span to a task's headers, when
 * OpenTelemetry's API is on the classpath, a span is current and the request has no traceparent of
 * its own.
 */
final class TraceHeaders {
  static final String TRACEPARENT = ReservedHeaders.TRACEPARENT;
  private static final Logger LOG = LoggerFactory.getLogger(TraceHeaders.class);
  private static final boolean OTEL_PRESENT = otelPresent();

  private final boolean enabled;

  TraceHeaders(boolean enabled) {
    this.enabled = enabled && OTEL_PRESENT;
  }

  Map<String, String> enrich(Map<String, String> headers) {
    if (!enabled || headers.containsKey(TRACEPARENT)) {
      return headers;
    }
    String traceparent;
    try {
      traceparent = OtelTraceparent.current();
    } catch (LinkageError e) {
      LOG.debug("OpenTelemetry API unusable; no traceparent", e);
      return headers;
    }
    if (traceparent == null) {
      return headers;
    }
    var copy = new LinkedHashMap<>(headers);
    copy.put(TRACEPARENT, traceparent);
    return copy;
  }

  /** {@code version-traceid-spanid-flags}, e.g. {@code 00-4bf9...-00f0...-01} (W3C, version 00). */
  static String format(String traceId, String spanId, String flagsHex) {
    if (traceId.length() != 32 || spanId.length() != 16 || flagsHex.length() != 2) {
      throw new IllegalArgumentException(
          "trace id must be 32, span id 16 and flags 2 hex characters");
    }
    return "00-" + traceId + "-" + spanId + "-" + flagsHex;
  }

  private static boolean otelPresent() {
    try {
      Class.forName("io.opentelemetry.api.trace.Span", false, TraceHeaders.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
