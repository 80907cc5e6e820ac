package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.WireCodec;
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

  private String reason(OutboxRow row) {
    Mapped m = mapper.map(row, NOW);
    assertThat(m).isInstanceOf(Mapped.Rejected.class);
    return ((Mapped.Rejected) m).reason();
  }
}
