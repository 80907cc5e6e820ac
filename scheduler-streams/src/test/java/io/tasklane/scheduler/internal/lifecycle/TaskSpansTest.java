package io.tasklane.scheduler.internal.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.Wire;
import io.tasklane.core.tracing.SpanKeys;
import io.tasklane.core.tracing.Tracing;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The scheduler's admission and dispatch spans continue the task's enqueue span. */
class TaskSpansTest {
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String ENQUEUE_SPAN = "00f067aa0ba902b7";

  private final InMemorySpanExporter memory = InMemorySpanExporter.create();
  private final OpenTelemetrySdk sdk =
      OpenTelemetrySdk.builder()
          .setTracerProvider(
              SdkTracerProvider.builder()
                  .addSpanProcessor(SimpleSpanProcessor.create(memory))
                  .build())
          .build();
  private final TaskSpans spans = new TaskSpans(Tracing.of("io.tasklane.scheduler", sdk));

  @AfterEach
  void closeSdk() {
    sdk.close();
  }

  @Test
  void dispatchSpanIsAChildOfTheEnqueueSpanAndTravelsInTheRecordHeaders() {
    Dispatch dispatch = new Dispatch(Wire.VERSION, task(), 2, 0, "rk", 0);
    RecordHeaders headers = spans.dispatched(dispatch, "ns.handler.mail.send");

    assertThat(memory.getFinishedSpanItems()).hasSize(1);
    SpanData span = memory.getFinishedSpanItems().get(0);
    assertThat(span.getName()).isEqualTo("publish ns.handler.mail.send");
    assertThat(span.getKind()).isEqualTo(SpanKind.PRODUCER);
    assertThat(span.getTraceId()).isEqualTo(TRACE);
    assertThat(span.getParentSpanId()).isEqualTo(ENQUEUE_SPAN);
    assertThat(span.getAttributes().get(SpanKeys.ATTEMPT)).isEqualTo(2L);
    assertThat(span.getAttributes().get(SpanKeys.OPERATION_TYPE)).isEqualTo("publish");
    String traceparent =
        new String(headers.lastHeader("traceparent").value(), StandardCharsets.UTF_8);
    assertThat(traceparent).isEqualTo("00-" + TRACE + "-" + span.getSpanId() + "-01");
  }

  @Test
  void admissionRunsInsideItsSpanAndAFailureMarksItError() {
    spans.admit(task(), "rk", null, () -> {});
    assertThatThrownBy(
            () ->
                spans.admit(
                    task(),
                    "rk",
                    null,
                    () -> {
                      throw new IllegalStateException("store full");
                    }))
        .hasMessage("store full");

    assertThat(memory.getFinishedSpanItems()).hasSize(2);
    assertThat(memory.getFinishedSpanItems())
        .allMatch(s -> s.getParentSpanId().equals(ENQUEUE_SPAN));
    assertThat(memory.getFinishedSpanItems().get(0).getName()).startsWith("admit ");
    assertThat(memory.getFinishedSpanItems().get(0).getStatus().getStatusCode())
        .isEqualTo(StatusCode.UNSET);
    assertThat(memory.getFinishedSpanItems().get(1).getStatus().getStatusCode())
        .isEqualTo(StatusCode.ERROR);
  }

  @Test
  void offRecordsNothingAndAddsNoHeaders() {
    TaskSpans off = new TaskSpans(Tracing.off());
    boolean[] ran = {false};
    off.admit(task(), "rk", null, () -> ran[0] = true);
    assertThat(ran[0]).isTrue();
    assertThat(off.dispatched(new Dispatch(Wire.VERSION, task(), 1, 0, "rk", 0), "t")).isNull();
    assertThat(memory.getFinishedSpanItems()).isEmpty();
  }

  private static TaskEnvelope task() {
    return TaskEnvelope.builder()
        .id("t-1")
        .handler("mail.send")
        .headers(Map.of("traceparent", "00-" + TRACE + "-" + ENQUEUE_SPAN + "-01"))
        .build();
  }
}
