package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.util.Map;
import org.junit.jupiter.api.Test;

@TasklaneStack
class TraceparentTest {
  final TestDb db;

  TraceparentTest(LocalStack stack) {
    db = TestDb.create(stack, "outbox_trace");
  }

  @Test
  void formatsW3cTraceparent() {
    assertThat(TraceHeaders.format("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", "01"))
        .isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    assertThatThrownBy(() -> TraceHeaders.format("abc", "00f067aa0ba902b7", "01"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void currentSpanIsCopiedIntoHeadersUnlessDisabledOrGiven() throws Exception {
    try (SdkTracerProvider tracing = SdkTracerProvider.builder().build()) {
      Span span = tracing.get("test").spanBuilder("place-order").startSpan();
      String expected =
          "00-"
              + span.getSpanContext().getTraceId()
              + "-"
              + span.getSpanContext().getSpanId()
              + "-01";
      try (Scope ignored = span.makeCurrent();
          Connection c = db.begin()) {
        JdbcTaskOutbox.of(c).enqueue(TaskRequest.to("traced.task").key("a"));
        TaskOutbox.builder()
            .config(OutboxConfig.DEFAULT.withTraceparent(false))
            .jdbc(c)
            .enqueue(TaskRequest.to("traced.task").key("b"));
        JdbcTaskOutbox.of(c)
            .enqueue(TaskRequest.to("traced.task").key("c").header("traceparent", "given"));
        c.commit();
      } finally {
        span.end();
      }
      try (Connection c = db.begin()) {
        JdbcTaskOutbox.of(c).enqueue(TaskRequest.to("traced.task").key("d"));
        c.commit();
      }
      assertThat(headersOf("a")).isEqualTo(Map.of("traceparent", expected));
      assertThat(headersOf("b")).isNull();
      assertThat(headersOf("c")).isEqualTo(Map.of("traceparent", "given"));
      assertThat(headersOf("d")).as("no span current").isNull();
    }
  }

  @SuppressWarnings("unchecked")
  private Map<String, String> headersOf(String key) throws Exception {
    Object json =
        db.query("SELECT headers FROM tasklane_outbox WHERE task_key = '" + key + "'")
            .get(0)
            .get("headers");
    return json == null
        ? null
        : io.tasklane.core.WireCodec.mapper().readValue((String) json, Map.class);
  }
}
