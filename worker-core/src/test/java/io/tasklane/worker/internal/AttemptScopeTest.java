package io.tasklane.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.trace.Span;
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
import io.tasklane.core.tracing.Tracing;
import io.tasklane.worker.TaskMdc;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** The attempt's span and MDC around a handler call, on the calling thread. */
class AttemptScopeTest {
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String ENQUEUE_SPAN = "00f067aa0ba902b7";
  private static final String DISPATCH_SPAN = "b7ad6b7169203331";
  private static final String TOPIC = "tasklane.handler.mail.send";

  private final InMemorySpanExporter memory = InMemorySpanExporter.create();
  private final OpenTelemetrySdk sdk =
      OpenTelemetrySdk.builder()
          .setTracerProvider(
              SdkTracerProvider.builder()
                  .addSpanProcessor(SimpleSpanProcessor.create(memory))
                  .build())
          .build();

  @AfterEach
  void closeSdk() {
    sdk.close();
    MDC.clear();
  }

  @Test
  void attemptSpanIsAChildOfTheEnqueueSpanLinkedToTheDispatchSpanAndCurrentMeanwhile() {
    Dispatch dispatch = dispatch(2);
    try (AttemptScope scope =
        AttemptScope.open(
            Tracing.of("io.tasklane.worker", sdk), dispatch, "mail.send", record(dispatch))) {
      assertThat(Span.current().getSpanContext().getTraceId()).isEqualTo(TRACE);
      assertThat(MDC.get(TaskMdc.TASK_ID)).isEqualTo("t-1");
      assertThat(MDC.get(TaskMdc.HANDLER)).isEqualTo("mail.send");
      assertThat(MDC.get(TaskMdc.ATTEMPT)).isEqualTo("2");
    }
    assertThat(Span.current().getSpanContext().isValid()).isFalse();
    assertMdcCleared();
    assertThat(memory.getFinishedSpanItems()).hasSize(1);
    SpanData span = memory.getFinishedSpanItems().get(0);
    assertThat(span.getName()).isEqualTo("process " + TOPIC);
    assertThat(span.getKind()).isEqualTo(SpanKind.CONSUMER);
    assertThat(span.getTraceId()).isEqualTo(TRACE);
    assertThat(span.getParentSpanId()).isEqualTo(ENQUEUE_SPAN);
    assertThat(span.getLinks()).hasSize(1);
    assertThat(span.getLinks().get(0).getSpanContext().getSpanId()).isEqualTo(DISPATCH_SPAN);
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    Map<String, Object> attributes = new java.util.HashMap<>();
    span.getAttributes().forEach((k, v) -> attributes.put(k.getKey(), v));
    assertThat(attributes)
        .containsEntry("messaging.system", "kafka")
        .containsEntry("messaging.destination.name", TOPIC)
        .containsEntry("messaging.operation.type", "process")
        .containsEntry("messaging.kafka.message.key", "t-1")
        .containsEntry("messaging.destination.partition.id", "3")
        .containsEntry("messaging.kafka.offset", 42L)
        .containsEntry("tasklane.task.id", "t-1")
        .containsEntry("tasklane.handler", "mail.send")
        .containsEntry("tasklane.attempt", 2L);
  }

  @Test
  void failedAttemptEndsWithErrorAndTheExceptionAndClearsTheMdc() {
    Dispatch dispatch = dispatch(1);
    assertThatThrownBy(
            () -> {
              try (AttemptScope scope =
                  AttemptScope.open(
                      Tracing.of("io.tasklane.worker", sdk),
                      dispatch,
                      "mail.send",
                      record(dispatch))) {
                try {
                  throw new IllegalStateException("smtp down");
                } catch (IllegalStateException e) {
                  scope.failed(e);
                  throw e;
                }
              }
            })
        .hasMessage("smtp down");
    assertMdcCleared();
    SpanData span = memory.getFinishedSpanItems().get(0);
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span.getEvents()).anyMatch(e -> e.getName().equals("exception"));
  }

  @Test
  void withTracingOffTheMdcIsStillSetAndNoSpanIsCurrent() {
    Dispatch dispatch = dispatch(1);
    try (AttemptScope scope =
        AttemptScope.open(Tracing.off(), dispatch, "mail.send", record(dispatch))) {
      assertThat(MDC.get(TaskMdc.TASK_ID)).isEqualTo("t-1");
      assertThat(Span.current().getSpanContext().isValid()).isFalse();
    }
    assertMdcCleared();
    assertThat(memory.getFinishedSpanItems()).isEmpty();
  }

  @Test
  void taskWithoutTraceparentStartsItsOwnTraceStillLinkedToTheDispatch() {
    Dispatch dispatch = dispatch(1, Map.of());
    try (AttemptScope scope =
        AttemptScope.open(
            Tracing.of("io.tasklane.worker", sdk), dispatch, "mail.send", record(dispatch))) {
      assertThat(Span.current().getSpanContext().isValid()).isTrue();
    }
    SpanData span = memory.getFinishedSpanItems().get(0);
    assertThat(span.getTraceId()).isNotEqualTo(TRACE);
    assertThat(span.getParentSpanContext().isValid()).isFalse();
    assertThat(span.getLinks()).hasSize(1);
  }

  private static void assertMdcCleared() {
    assertThat(MDC.get(TaskMdc.TASK_ID)).isNull();
    assertThat(MDC.get(TaskMdc.HANDLER)).isNull();
    assertThat(MDC.get(TaskMdc.ATTEMPT)).isNull();
  }

  private static Dispatch dispatch(int attempt) {
    return dispatch(attempt, Map.of("traceparent", "00-" + TRACE + "-" + ENQUEUE_SPAN + "-01"));
  }

  private static Dispatch dispatch(int attempt, Map<String, String> headers) {
    TaskEnvelope task =
        TaskEnvelope.builder().id("t-1").handler("mail.send").headers(headers).build();
    return new Dispatch(Wire.VERSION, task, attempt, 0, "t-1", 0);
  }

  private static ConsumerRecord<byte[], byte[]> record(Dispatch d) {
    var r =
        new ConsumerRecord<>(
            TOPIC, 3, 42L, d.id().getBytes(StandardCharsets.UTF_8), new byte[] {'{', '}'});
    r.headers()
        .add(
            "traceparent",
            ("00-" + TRACE + "-" + DISPATCH_SPAN + "-01").getBytes(StandardCharsets.UTF_8));
    return r;
  }
}
