package io.tasklane.scheduler.internal;

import io.tasklane.core.ControlRecord;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Forwards the scheduler's output records to the right sink node. */
final class Outputs {
  static final String ERROR_TYPE = "tasklane.error.type";
  static final String ERROR_MESSAGE = "tasklane.error.message";
  static final String REASON = "tasklane.reason";

  private final ProcessorContext<String, Object> context;

  Outputs(ProcessorContext<String, Object> context) {
    this.context = context;
  }

  /** A dispatch to {@code <ns>.handler.<handler>}, keyed by task id. */
  void dispatch(Dispatch dispatch, long now) {
    context.forward(new Record<String, Object>(dispatch.id(), dispatch, now), Stores.SINK_DISPATCH);
  }

  /** A dead letter to {@code <ns>.handler.<handler>.dlt}: the last dispatch plus error headers. */
  void deadLetter(Dispatch last, ErrorInfo error, String reason, long now) {
    RecordHeaders headers = new RecordHeaders();
    if (error != null) {
      add(headers, ERROR_TYPE, error.type());
      add(headers, ERROR_MESSAGE, error.message());
    }
    add(headers, REASON, reason);
    context.forward(new Record<String, Object>(last.id(), last, now, headers), Stores.SINK_DLT);
  }

  /** A control record (dependency protocol) keyed by {@code key}. */
  void control(String key, ControlRecord command, long now) {
    context.forward(new Record<String, Object>(key, command, now), Stores.SINK_CONTROL);
  }

  private static void add(RecordHeaders headers, String name, String value) {
    if (value != null) {
      headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
  }
}
