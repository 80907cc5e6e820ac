package io.tasklane.examples.tracing;

import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.Comparator;
import java.util.List;

/** The test process's side of a trace: its enqueue spans, and one task's trace as text. */
final class TraceReport {
  private TraceReport() {}

  /** The trace of one task under its enqueue span: each span's start offset and duration. */
  static String render(SpanData enqueue, List<ExportedSpan> spans) {
    long t0 = enqueue.getStartEpochNanos();
    StringBuilder b = new StringBuilder();
    b.append("trace ")
        .append(enqueue.getTraceId())
        .append(" (start offsets from the enqueue span)\n");
    b.append(
        String.format(
            "%-48s %-19s %+9.1f ms %8.1f ms  span %s%n",
            enqueue.getName(),
            "(test)",
            0.0,
            (enqueue.getEndEpochNanos() - t0) / 1e6,
            enqueue.getSpanId()));
    spans.stream()
        .sorted(Comparator.comparingLong(ExportedSpan::startNanos))
        .forEach(
            s ->
                b.append(
                    String.format(
                        "  └ %-44s %-19s %+9.1f ms %8.1f ms  span %s parent %s%s%s%s%n",
                        s.name(),
                        s.service(),
                        (s.startNanos() - t0) / 1e6,
                        s.millis(),
                        s.spanId(),
                        s.parentSpanId(),
                        s.attribute("tasklane.attempt") == null
                            ? ""
                            : " attempt " + s.attribute("tasklane.attempt"),
                        s.linkedSpanIds().isEmpty() ? "" : " link " + s.linkedSpanIds(),
                        s.status().equals("2") ? " ERROR" : "")));
    return b.toString();
  }
}
