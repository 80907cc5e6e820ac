package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskKey;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@TasklaneStack
class JdbcTaskOutboxTest {
  static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  record Order(long id, String customer) {}

  final TestDb db;

  /** One outbox per transaction's connection, all on a fixed clock. */
  interface Outboxes {
    JdbcTaskOutbox on(Connection c);
  }

  final Outboxes outboxes;

  JdbcTaskOutboxTest(LocalStack stack) {
    db = TestDb.create(stack, "outbox_jdbc");
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    outboxes = c -> TaskOutbox.builder().clock(clock).jdbc(c);
  }

  @BeforeEach
  void empty() {
    db.truncate();
  }

  @Test
  void commitWritesOneRowWithEveryFieldAsGiven() throws Exception {
    String dep = TaskIds.keyless(Clock.systemUTC());
    String id;
    try (Connection c = db.begin()) {
      id =
          outboxes
              .on(c)
              .enqueue(
                  TaskRequest.to("order.cancel")
                      .payload(new Order(42, "ada"))
                      .delay(Duration.ofMinutes(30))
                      .key("order-42")
                      .orderingKey("customer-ada")
                      .maxAttempts(5)
                      .timeout(Duration.ofSeconds(90))
                      .backoff(RetryPolicy.fixed(Duration.ofMinutes(1), Duration.ofMinutes(5)))
                      .dependsOn(dep)
                      .header("tenant", "eu")
                      .waitTimeout(Duration.ofMinutes(10)));
      c.commit();
    }
    assertThat(id).isEqualTo(TaskIds.forKey("order.cancel", "order-42"));
    List<Map<String, Object>> rows = db.rows();
    assertThat(rows).hasSize(1);
    Map<String, Object> row = rows.get(0);
    assertThat(row)
        .containsEntry("task_id", id)
        .containsEntry("routing_key", "customer-ada")
        .containsEntry("kind", "TASK")
        .containsEntry("handler", "order.cancel")
        .containsEntry("task_key", "order-42")
        .containsEntry("due_at", NOW.toEpochMilli() + 30 * 60_000)
        .containsEntry("max_attempts", 5)
        .containsEntry("timeout_ms", 90_000L)
        .containsEntry("created_at", NOW.toEpochMilli());
    assertThat(json(row, "payload"))
        .isEqualTo(WireCodec.readTree("{\"id\":42,\"customer\":\"ada\"}"));
    assertThat(WireCodec.mapper().readValue((String) row.get("backoff"), RetryPolicy.class))
        .isEqualTo(RetryPolicy.fixed(Duration.ofMinutes(1), Duration.ofMinutes(5)));
    assertThat(json(row, "backoff").get("kind").asText()).isEqualTo("fixed");
    assertThat(json(row, "depends_on")).isEqualTo(WireCodec.readTree("[\"" + dep + "\"]"));
    assertThat(json(row, "headers")).isEqualTo(WireCodec.readTree("{\"tenant\":\"eu\"}"));
    assertThat(json(row, "options"))
        .isEqualTo(WireCodec.readTree("{\"v\":1,\"waitTimeoutMs\":600000}"));
  }

  @Test
  void defaultsApplyAndKeylessTasksGetUuidV7RoutedByTheirId() throws Exception {
    String id;
    try (Connection c = db.begin()) {
      id = outboxes.on(c).enqueue(TaskRequest.to("report.build"));
      c.commit();
    }
    assertThat(TaskIds.timestampOf(id)).isEqualTo(NOW.toEpochMilli());
    Map<String, Object> row = db.rows().get(0);
    assertThat(row)
        .containsEntry("routing_key", id)
        .containsEntry("task_key", null)
        .containsEntry("payload", "null")
        .containsEntry("due_at", NOW.toEpochMilli())
        .containsEntry("max_attempts", OutboxConfig.DEFAULT_MAX_ATTEMPTS)
        .containsEntry("timeout_ms", OutboxConfig.DEFAULT_TIMEOUT.toMillis())
        .containsEntry("backoff", null)
        .containsEntry("depends_on", null)
        .containsEntry("headers", null)
        .containsEntry("options", null);
  }

  @Test
  void absoluteDueTimeIsStoredAsEpochMillis() throws Exception {
    Instant at = NOW.plus(Duration.ofDays(3));
    try (Connection c = db.begin()) {
      outboxes.on(c).enqueue(TaskRequest.to("report.build").at(at));
      c.commit();
    }
    assertThat(db.rows().get(0)).containsEntry("due_at", at.toEpochMilli());
  }

  @Test
  void rollbackLeavesNoRow() throws Exception {
    try (Connection c = db.begin()) {
      outboxes.on(c).enqueue(TaskRequest.to("order.cancel").payload("x"));
      outboxes.on(c).cancel(TaskIds.keyless(Clock.systemUTC()));
      assertThat(c.createStatement().executeQuery("SELECT 1 FROM tasklane_outbox").next())
          .as("visible inside the transaction")
          .isTrue();
      c.rollback();
    }
    assertThat(db.count()).isZero();
  }

  @Test
  void autoCommitConnectionIsRefusedAndNothingIsWritten() throws Exception {
    try (Connection c = db.connect()) {
      JdbcTaskOutbox outbox = outboxes.on(c);
      assertThatThrownBy(() -> outbox.enqueue(TaskRequest.to("order.cancel")))
          .isInstanceOf(NoActiveTransactionException.class)
          .hasMessageContaining("auto-commit")
          .hasMessageContaining("setAutoCommit(false)");
      assertThatThrownBy(() -> outbox.cancel(TaskKey.of("order.cancel", "order-1")))
          .isInstanceOf(NoActiveTransactionException.class);
    }
    assertThat(db.count()).isZero();
  }

  @Test
  void cancelRowsNameTheTaskByIdOrByKey() throws Exception {
    String target = TaskIds.keyless(Clock.systemUTC());
    String byKey;
    try (Connection c = db.begin()) {
      JdbcTaskOutbox outbox = outboxes.on(c);
      assertThat(outbox.cancel(target)).isEqualTo(target);
      outbox.cancel(target, TaskOutbox.CancelReason.of("order \"42\" paid"));
      byKey = outbox.cancel(TaskKey.of("order.cancel", "order-42"));
      c.commit();
    }
    assertThat(byKey).isEqualTo(TaskIds.forKey("order.cancel", "order-42"));
    List<Map<String, Object>> rows = db.rows();
    assertThat(rows).hasSize(3);
    assertThat(rows).allSatisfy(r -> assertThat(r).containsEntry("kind", "CANCEL"));
    assertThat(rows.get(0))
        .containsEntry("task_id", target)
        .containsEntry("routing_key", target)
        .containsEntry("handler", null)
        .containsEntry("payload", null)
        .containsEntry("due_at", 0L)
        .containsEntry("max_attempts", 0)
        .containsEntry("timeout_ms", 0L)
        .containsEntry("created_at", NOW.toEpochMilli());
    assertThat(json(rows.get(1), "payload").asText()).isEqualTo("order \"42\" paid");
    assertThat(rows.get(2))
        .containsEntry("task_id", byKey)
        .containsEntry("routing_key", byKey)
        .containsEntry("handler", "order.cancel")
        .containsEntry("task_key", "order-42");
  }

  @Test
  void connectionSourceIsAskedOnEveryCall() throws Exception {
    try (Connection c = db.begin()) {
      int[] calls = {0};
      JdbcTaskOutbox outbox =
          JdbcTaskOutbox.of(
              () -> {
                calls[0]++;
                return c;
              });
      outbox.enqueue(TaskRequest.to("a.b"));
      outbox.enqueueAll(List.of(TaskRequest.to("a.b"), TaskRequest.to("a.c")));
      c.commit();
      assertThat(calls[0]).isEqualTo(2);
    }
    assertThat(db.count()).isEqualTo(3);
  }

  @Test
  void enqueueAllWritesTenThousandTasksInOneTransaction() throws Exception {
    List<TaskRequest> requests =
        java.util.stream.IntStream.range(0, 10_000)
            .mapToObj(i -> TaskRequest.to("bulk.item").payload(Map.of("n", i)).key("item-" + i))
            .toList();
    List<String> ids;
    try (Connection c = db.begin()) {
      ids = outboxes.on(c).enqueueAll(requests);
      c.commit();
    }
    assertThat(ids).hasSize(10_000).doesNotHaveDuplicates();
    assertThat(ids.get(7)).isEqualTo(TaskIds.forKey("bulk.item", "item-7"));
    assertThat(db.count()).isEqualTo(10_000);
    Map<String, Object> row =
        db.query("SELECT * FROM tasklane_outbox WHERE task_key = 'item-9999'").get(0);
    assertThat(row).containsEntry("task_id", ids.get(9999));
    assertThat(json(row, "payload").get("n").asInt()).isEqualTo(9999);
  }

  @Test
  void enqueueAllWritesNothingWhenOneRequestIsInvalid() throws Exception {
    try (Connection c = db.begin()) {
      JdbcTaskOutbox outbox = outboxes.on(c);
      assertThatThrownBy(
              () ->
                  outbox.enqueueAll(List.of(TaskRequest.to("ok.one"), TaskRequest.to("Bad Name"))))
          .isInstanceOfSatisfying(
              io.tasklane.core.InvalidTaskException.class,
              e -> {
                assertThat(e.field()).isEqualTo("handler");
                assertThat(e.getMessage())
                    .contains("request 1 of 2")
                    .doesNotContain("handler: handler");
              });
      c.commit();
    }
    assertThat(db.count()).isZero();
  }

  static JsonNode json(Map<String, Object> row, String column) {
    return WireCodec.readTree((String) row.get(column));
  }
}
