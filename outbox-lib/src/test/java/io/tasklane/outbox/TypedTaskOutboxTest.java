package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskType;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Tasks of a declared {@link TaskType}: the type's name, payload class and defaults. */
@TasklaneStack
class TypedTaskOutboxTest {
  static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  record OrderRef(long orderId) {}

  static final TaskType<OrderRef> ORDER_CANCEL =
      TaskType.of("order.cancel", OrderRef.class)
          .maxAttempts(5)
          .backoff(RetryPolicy.fixed(Duration.ofMinutes(1)))
          .timeout(Duration.ofSeconds(30));

  static final TaskType<OrderRef> ORDER_AUDIT = TaskType.of("order.audit", OrderRef.class);

  final TestDb db;
  final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

  TypedTaskOutboxTest(LocalStack stack) {
    db = TestDb.create(stack, "outbox_typed");
  }

  @BeforeEach
  void empty() {
    db.truncate();
  }

  @Test
  void aTypedTaskCarriesTheTypesNamePayloadAndDefaults() throws Exception {
    String id;
    try (Connection c = db.begin()) {
      id =
          TaskOutbox.builder()
              .clock(clock)
              .jdbc(c)
              .enqueue(
                  TaskRequest.of(ORDER_CANCEL, new OrderRef(42))
                      .delay(Duration.ofMinutes(30))
                      .key("order-42"));
      c.commit();
    }
    assertThat(id).isEqualTo(ORDER_CANCEL.key("order-42").taskId());
    Map<String, Object> row = db.rows().get(0);
    assertThat(row)
        .containsEntry("handler", "order.cancel")
        .containsEntry("task_key", "order-42")
        .containsEntry("due_at", NOW.toEpochMilli() + 30 * 60_000)
        .containsEntry("max_attempts", 5)
        .containsEntry("timeout_ms", 30_000L);
    assertThat(WireCodec.readTree((String) row.get("payload")))
        .isEqualTo(WireCodec.readTree("{\"orderId\":42}"));
    assertThat(WireCodec.mapper().readValue((String) row.get("backoff"), RetryPolicy.class))
        .isEqualTo(RetryPolicy.fixed(Duration.ofMinutes(1)));
  }

  @Test
  void aRequestOverridesTheTypesDefaults() throws Exception {
    try (Connection c = db.begin()) {
      TaskOutbox.builder()
          .clock(clock)
          .jdbc(c)
          .enqueue(
              TaskRequest.of(ORDER_CANCEL, new OrderRef(7))
                  .maxAttempts(2)
                  .timeout(Duration.ofSeconds(5))
                  .backoff(RetryPolicy.sidekiq()));
      c.commit();
    }
    Map<String, Object> row = db.rows().get(0);
    assertThat(row).containsEntry("max_attempts", 2).containsEntry("timeout_ms", 5_000L);
    assertThat(WireCodec.readTree((String) row.get("backoff")).get("kind").asText())
        .isEqualTo("sidekiq");
  }

  @Test
  void aTypeWithoutDefaultsTakesTheOutboxDefaults() throws Exception {
    String id;
    try (Connection c = db.begin()) {
      id = TaskOutbox.builder().clock(clock).jdbc(c).enqueue(ORDER_AUDIT, new OrderRef(9));
      c.commit();
    }
    assertThat(TaskIds.timestampOf(id)).isEqualTo(NOW.toEpochMilli());
    Map<String, Object> row = db.rows().get(0);
    assertThat(WireCodec.readTree((String) row.get("payload")))
        .isEqualTo(WireCodec.readTree("{\"orderId\":9}"));
    assertThat(row)
        .containsEntry("handler", "order.audit")
        .containsEntry("due_at", NOW.toEpochMilli())
        .containsEntry("max_attempts", OutboxConfig.DEFAULT_MAX_ATTEMPTS)
        .containsEntry("timeout_ms", OutboxConfig.DEFAULT_TIMEOUT.toMillis())
        .containsEntry("backoff", null);
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void aPayloadOfAnotherClassIsRefusedBeforeAnythingIsWritten() throws Exception {
    TaskType raw = ORDER_CANCEL;
    assertThatThrownBy(() -> TaskRequest.of(raw, "order-42"))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("payload:")
        .hasMessageContaining("java.lang.String")
        .hasMessageContaining("order.cancel")
        .hasMessageContaining(OrderRef.class.getName());
    try (Connection c = db.begin()) {
      JdbcTaskOutbox outbox = TaskOutbox.builder().clock(clock).jdbc(c);
      assertThatThrownBy(() -> outbox.enqueue(raw, 42)).isInstanceOf(InvalidTaskException.class);
      c.commit();
    }
    assertThat(db.count()).isZero();
  }
}
