package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxRow;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RowMapperTest {
  private static final long NOW = 1_700_000_000_000L;
  private final RowMapper mapper = new RowMapper("tasklane_outbox", new TaskLimits(1024));
  private final String id = TaskIds.keyless(Clock.systemUTC());

  private OutboxRow task(String routingKey, String handler, String payload) {
    return new OutboxRow(
        7, id, routingKey, "TASK", handler, "k-1", payload, NOW, 5, 60_000, null, null, null, NOW);
  }

  @Test
  void mapsATaskRowToAnEnvelopeKeyedByItsRoutingKey() {
    OutboxRow row =
        new OutboxRow(
            7,
            id,
            "order-9",
            "TASK",
            "order.ship",
            "k-1",
            "{\"a\":1}",
            NOW + 5000,
            5,
            60_000,
            WireCodec.encodeToString(RetryPolicy.fixed(Duration.ofSeconds(30))),
            "[\"" + TaskIds.keyless(Clock.systemUTC()) + "\"]",
            "{\"traceparent\":\"00-ab\"}",
            NOW);

    var relayed = (Mapped.Relayed) mapper.map(row, NOW);

    assertThat(relayed.key()).isEqualTo("order-9");
    var t = (TaskEnvelope) WireCodec.decodeTaskRecord(relayed.value());
    assertThat(t.id()).isEqualTo(id);
    assertThat(t.orderingKey()).isEqualTo("order-9");
    assertThat(t.key()).isEqualTo("k-1");
    assertThat(t.payload().get("a").asInt()).isEqualTo(1);
    assertThat(t.dueAt()).isEqualTo(NOW + 5000);
    assertThat(t.maxAttempts()).isEqualTo(5);
    assertThat(t.backoff()).isInstanceOf(RetryPolicy.Fixed.class);
    assertThat(t.dependsOn()).hasSize(1);
    assertThat(t.headers()).containsEntry("traceparent", "00-ab");
    assertThat(t.source().rowId()).isEqualTo(7);
    assertThat(t.source().table()).isEqualTo("tasklane_outbox");
  }

  @Test
  void leavesOrderingKeyUnsetWhenTheRoutingKeyIsTheTaskId() {
    var t =
        (TaskEnvelope)
            WireCodec.decodeTaskRecord(
                ((Mapped.Relayed) mapper.map(task(id, "a.b", null), NOW)).value());
    assertThat(t.orderingKey()).isNull();
    assertThat(t.payload().isNull()).isTrue();
    assertThat(t.backoff()).isEqualTo(RetryPolicy.sidekiq());
  }

  @Test
  void mapsACancelRowWithItsReason() {
    OutboxRow row =
        new OutboxRow(8, id, id, "CANCEL", null, null, "\"paid\"", 0, 0, 0, null, null, null, NOW);
    var c =
        (CancelCommand) WireCodec.decodeTaskRecord(((Mapped.Relayed) mapper.map(row, NOW)).value());
    assertThat(c.id()).isEqualTo(id);
    assertThat(c.reason()).isEqualTo("paid");
    assertThat(c.requestedAt()).isEqualTo(NOW);
  }

  @Test
  void rejectsBrokenRowsWithAReasonNamingTheField() {
    assertThat(reason(task(id, "a.b", "{nope"))).startsWith("payload: not valid JSON");
    assertThat(reason(task(id, null, "{}"))).startsWith("handler: is null");
    assertThat(reason(task(id, "a.b", "\"" + "x".repeat(2000) + "\"")))
        .startsWith("payload: is 2002 bytes; the limit is 1024");
    assertThat(
            reason(
                new OutboxRow(
                    1, id, id, "NOPE", "a.b", null, "{}", NOW, 5, 60_000, null, null, null, NOW)))
        .startsWith("kind: unknown kind 'NOPE'");
    assertThat(
            reason(
                new OutboxRow(
                    1, "xyz", "xyz", "TASK", "a.b", null, "{}", NOW, 5, 60_000, null, null, null,
                    NOW)))
        .startsWith("id: ");
    assertThat(
            reason(
                new OutboxRow(
                    1, id, id, "TASK", "a.b", null, "{}", NOW, 0, 60_000, null, null, null, NOW)))
        .startsWith("maxAttempts: ");
    assertThat(
            reason(
                new OutboxRow(
                    1,
                    id,
                    id,
                    "TASK",
                    "a.b",
                    null,
                    "{}",
                    NOW,
                    5,
                    60_000,
                    "{\"kind\":\"nope\"}",
                    null,
                    null,
                    NOW)))
        .startsWith("backoff: ");
    assertThat(
            reason(
                new OutboxRow(
                    1, id, id, "TASK", "a.b", null, "{}", NOW, 5, 60_000, null, "{}", null, NOW)))
        .startsWith("depends_on: ");
    assertThat(
            reason(
                new OutboxRow(
                    1, "bad", "bad", "CANCEL", null, null, null, 0, 0, 0, null, null, null, NOW)))
        .startsWith("task_id: ");
  }

  @Test
  void aCancelReasonOverTheOutboxCapIsRejectedNamingTheFieldAndTheLimit() {
    String atCap = "r".repeat(TaskLimits.MAX_CANCEL_REASON_CHARS);
    var c =
        (CancelCommand)
            WireCodec.decodeTaskRecord(((Mapped.Relayed) mapper.map(cancel(atCap), NOW)).value());
    assertThat(c.reason()).isEqualTo(atCap);
    assertThat(reason(cancel(atCap + "r")))
        .isEqualTo("reason: is 1001 characters; the limit is 1000 (as TaskOutbox.cancel enforces)");
  }

  @Test
  void aTaskWhoseEncodingGrowsPastTheRecordLimitIsRejectedNamingTheLimit() {
    // 1e6 re-encodes as 1000000.0: a payload under the 1 MiB cap grows past the record limit
    StringBuilder payload = new StringBuilder("[1e6");
    while (payload.length() < TaskLimits.HARD_MAX_PAYLOAD_BYTES - 8) {
      payload.append(",1e6");
    }
    payload.append(']');
    var big = new RowMapper("tasklane_outbox", new TaskLimits(TaskLimits.HARD_MAX_PAYLOAD_BYTES));
    Mapped m = big.map(task(id, "a.b", payload.toString()), NOW);
    assertThat(m).isInstanceOf(Mapped.Rejected.class);
    assertThat(((Mapped.Rejected) m).reason())
        .startsWith("record: the encoded task is ")
        .contains("the limit is " + TaskLimits.MAX_RECORD_BYTES + " bytes");
  }

  @Test
  void theDeadLetterOfAHugeRowStaysBounded() {
    String huge = "\u0001".repeat(3_000_001); // JSON escapes each as 6 bytes
    OutboxRow row =
        new OutboxRow(9, huge, huge, huge, huge, huge, huge, NOW, 5, 60_000, huge, huge, huge, NOW);
    var record = DeadLetters.of("ns.relay.dlt", "tasklane_outbox", 9, DeadLetters.rowOf(row), huge);
    assertThat(record.value().length).isLessThan(700_000);
    assertThat(record.headers().lastHeader(DeadLetters.REASON_HEADER).value().length)
        .isLessThanOrEqualTo(DeadLetters.MAX_HEADER_REASON_CHARS * 3 + 32);
    var body =
        WireCodec.readTree(new String(record.value(), java.nio.charset.StandardCharsets.UTF_8));
    assertThat(body.path("row").path("payload").asText()).endsWith("(3000001 chars)");
  }

  @Test
  void aCancelByKeyCarriesTheHandlerAndKeyOnTheTasksTopic() {
    OutboxRow row =
        new OutboxRow(
            8, id, id, "CANCEL", "order.cancel", "order-42", null, 0, 0, 0, null, null, null, NOW);
    var c =
        (CancelCommand) WireCodec.decodeTaskRecord(((Mapped.Relayed) mapper.map(row, NOW)).value());
    assertThat(c.handler()).isEqualTo("order.cancel");
    assertThat(c.key()).isEqualTo("order-42");
    assertThat(
            ((CancelCommand)
                    WireCodec.decodeTaskRecord(
                        ((Mapped.Relayed) mapper.map(cancel("paid"), NOW)).value()))
                .handler())
        .isNull();
  }

  private OutboxRow cancel(String reason) {
    return new OutboxRow(
        8,
        id,
        id,
        "CANCEL",
        null,
        null,
        WireCodec.encodeToString(reason),
        0,
        0,
        0,
        null,
        null,
        null,
        NOW);
  }

  private String reason(OutboxRow row) {
    Mapped m = mapper.map(row, NOW);
    assertThat(m).isInstanceOf(Mapped.Rejected.class);
    return ((Mapped.Rejected) m).reason();
  }

  @Test
  void aTasksOptionsTravelInTheEnvelope() {
    OutboxRow row =
        task(id, "a.b", null).toBuilder()
            .options("{\"v\":1,\"waitTimeoutMs\":60000,\"fromANewerWriter\":true}")
            .build();
    var t =
        (TaskEnvelope) WireCodec.decodeTaskRecord(((Mapped.Relayed) mapper.map(row, NOW)).value());
    assertThat(t.options()).isEqualTo(TaskOptions.builder().waitTimeoutMs(60_000L).build());
    assertThat(
            ((TaskEnvelope)
                    WireCodec.decodeTaskRecord(
                        ((Mapped.Relayed) mapper.map(task(id, "a.b", null), NOW)).value()))
                .options())
        .isEqualTo(TaskOptions.none());
  }

  @Test
  void badOptionsAreRejectedNamingTheOptionOrTheColumn() {
    java.util.Map<String, String> cases = new java.util.LinkedHashMap<>();
    cases.put("{broken", "options: ");
    cases.put("[1]", "options: not a JSON object");
    cases.put("{\"waitTimeoutMs\":\"soon\"}", "options: not a valid TaskOptions");
    cases.put(
        "{\"waitTimeoutMs\":5}", "waitTimeout: 5 ms is outside 1 s to 7 d (1000 to 604800000 ms)");
    cases.put("{\"v\":9}", "options: version 9 is not one this reader knows");
    cases.forEach(
        (json, reason) -> {
          Mapped m = mapper.map(task(id, "a.b", null).toBuilder().options(json).build(), NOW);
          assertThat(m).as(json).isInstanceOf(Mapped.Rejected.class);
          assertThat(((Mapped.Rejected) m).reason()).as(json).startsWith(reason);
        });
  }
}
