package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.tasklane.core.outbox.OutboxKind;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.tracing.SpanKeys;
import io.tasklane.core.tracing.Tracing;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A relayed row's span continues its enqueue span and says whether Kafka took the record. */
class PublishSpansTest {
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

  @AfterEach
  void closeSdk() {
    sdk.close();
  }

  @Test
  void relayedRowIsAChildOfItsEnqueueSpanAndADeadLetteredOneEndsInError() {
    PublishSpans spans = new PublishSpans(Tracing.of("io.tasklane.relay", sdk));
    ProducerRecord<String, byte[]> ok = new ProducerRecord<>("ns.tasks", "rk-1", new byte[1]);
    ProducerRecord<String, byte[]> big = new ProducerRecord<>("ns.tasks", "rk-2", new byte[1]);
    spans.task(row(1, "t-1"), ok);
    spans.none(); // a cancel
    spans.task(row(2, "t-2"), big);
    List<ProducerRecord<String, byte[]>> acked = new ArrayList<>();
    acked.add(ok);
    acked.add(new ProducerRecord<>("ns.tasks", "rk-c", new byte[1]));
    acked.add(new ProducerRecord<>("ns.relay.dlt", "rk-2", new byte[1]));
    spans.acknowledged(acked);

    assertThat(memory.getFinishedSpanItems()).hasSize(2);
    SpanData first =
        memory.getFinishedSpanItems().stream()
            .filter(s -> s.getAttributes().get(SpanKeys.TASK_ID).equals("t-1"))
            .findFirst()
            .orElseThrow();
    assertThat(first.getName()).isEqualTo("publish ns.tasks");
    assertThat(first.getKind()).isEqualTo(SpanKind.PRODUCER);
    assertThat(first.getTraceId()).isEqualTo(TRACE);
    assertThat(first.getParentSpanId()).isEqualTo(ENQUEUE_SPAN);
    assertThat(first.getAttributes().get(SpanKeys.KEY)).isEqualTo("rk-1");
    assertThat(first.getAttributes().get(SpanKeys.HANDLER)).isEqualTo("mail.send");
    assertThat(first.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    SpanData second =
        memory.getFinishedSpanItems().stream()
            .filter(s -> s.getAttributes().get(SpanKeys.TASK_ID).equals("t-2"))
            .findFirst()
            .orElseThrow();
    assertThat(second.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
  }

  @Test
  void abandonedBatchEndsEverySpanInError() {
    PublishSpans spans = new PublishSpans(Tracing.of("io.tasklane.relay", sdk));
    spans.task(row(1, "t-1"), new ProducerRecord<>("ns.tasks", "rk-1", new byte[1]));
    spans.abandoned(new InterruptedException("relay stopping"));
    assertThat(memory.getFinishedSpanItems()).hasSize(1);
    assertThat(memory.getFinishedSpanItems().get(0).getStatus().getStatusCode())
        .isEqualTo(StatusCode.ERROR);
  }

  @Test
  void rowWithoutTraceparentStartsItsOwnTraceAndOffRecordsNothing() {
    PublishSpans spans = new PublishSpans(Tracing.of("io.tasklane.relay", sdk));
    var r = new ProducerRecord<>("ns.tasks", "rk-1", new byte[1]);
    spans.task(row(1, "t-1").toBuilder().headers(null).build(), r);
    spans.acknowledged(List.of(r));
    assertThat(memory.getFinishedSpanItems().get(0).getParentSpanContext().isValid()).isFalse();

    PublishSpans off = new PublishSpans(Tracing.off());
    off.task(row(2, "t-2"), r);
    off.acknowledged(List.of(r));
    assertThat(memory.getFinishedSpanItems()).hasSize(1);
  }

  private static OutboxRow row(long id, String taskId) {
    return OutboxRow.builder()
        .id(id)
        .taskId(taskId)
        .routingKey("rk-" + id)
        .kind(OutboxKind.TASK)
        .handler("mail.send")
        .headers("{\"traceparent\":\"00-" + TRACE + "-" + ENQUEUE_SPAN + "-01\"}")
        .build();
  }
}
