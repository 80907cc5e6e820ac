package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskIds;
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
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The JDBC outbox on the real PostgreSQL: same contract as on MariaDB. */
@TasklaneStack
class PostgresJdbcOutboxTest {
  static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  final PgDb db;

  PostgresJdbcOutboxTest(LocalStack stack) {
    db = PgDb.create(stack, "outbox_pg_jdbc");
  }

  @BeforeEach
  void empty() {
    db.truncate();
  }

  @Test
  void commitWritesTheRowWithEveryField() throws Exception {
    String dep = TaskIds.keyless(Clock.systemUTC());
    String id;
    try (Connection c = db.begin()) {
      id =
          TaskOutbox.builder()
              .clock(CLOCK)
              .jdbc(c)
              .enqueue(
                  TaskRequest.to("order.cancel")
                      .payload(Map.of("order", 42, "note", "größe \"x\""))
                      .delay(Duration.ofMinutes(30))
                      .key("order-42")
                      .orderingKey("customer-ada")
                      .maxAttempts(5)
                      .timeout(Duration.ofSeconds(90))
                      .backoff(RetryPolicy.fixed(Duration.ofMinutes(1), Duration.ofMinutes(5)))
                      .dependsOn(dep)
                      .header("tenant", "eu"));
      c.commit();
    }
    List<Map<String, Object>> rows = db.rows();
    assertThat(rows).hasSize(1);
    Map<String, Object> row = rows.get(0);
    assertThat(row)
        .containsEntry("task_id", id)
        .containsEntry("routing_key", "customer-ada")
        .containsEntry("kind", "TASK")
        .containsEntry("handler", "order.cancel")
        .containsEntry("task_key", "order-42")
        .containsEntry("due_at", NOW.plus(Duration.ofMinutes(30)).toEpochMilli())
        .containsEntry("max_attempts", 5)
        .containsEntry("timeout_ms", 90_000L)
        .containsEntry("created_at", NOW.toEpochMilli());
    assertThat((String) row.get("payload")).contains("größe \\\"x\\\"", "\"order\":42");
    assertThat(WireCodec.readTree((String) row.get("depends_on")))
        .isEqualTo(WireCodec.readTree("[\"" + dep + "\"]"));
    assertThat(WireCodec.readTree((String) row.get("headers")))
        .isEqualTo(WireCodec.readTree("{\"tenant\":\"eu\"}"));
    assertThat((String) row.get("backoff")).startsWith("{\"kind\":");
    assertThat((Long) row.get("id")).isPositive();
  }

  @Test
  void rollbackLeavesNoRow() throws Exception {
    try (Connection c = db.begin()) {
      JdbcTaskOutbox outbox = JdbcTaskOutbox.of(c);
      outbox.enqueue(TaskRequest.to("order.cancel").payload("x"));
      outbox.cancel(TaskIds.keyless(Clock.systemUTC()));
      c.rollback();
    }
    assertThat(db.count()).isZero();
  }

  @Test
  void enqueueAllWritesEveryRowInOneTransaction() throws Exception {
    List<TaskRequest> requests =
        IntStream.range(0, 1_000).mapToObj(i -> TaskRequest.to("bulk.pg").payload(i)).toList();
    List<String> ids;
    try (Connection c = db.begin()) {
      ids = JdbcTaskOutbox.of(c).enqueueAll(requests);
      assertThat(db.count()).as("not visible before commit").isZero();
      c.commit();
    }
    assertThat(ids).hasSize(1_000).doesNotHaveDuplicates();
    assertThat(db.query("SELECT task_id FROM tasklane_outbox ORDER BY id"))
        .extracting(r -> r.get("task_id"))
        .containsExactlyElementsOf(ids);
  }

  @Test
  void badInputIsRefusedAndNothingIsWritten() throws Exception {
    try (Connection c = db.begin()) {
      JdbcTaskOutbox outbox = JdbcTaskOutbox.of(c);
      assertThatThrownBy(
              () ->
                  outbox.enqueueAll(
                      List.of(
                          TaskRequest.to("fine.task"), TaskRequest.to("fine.task").maxAttempts(0))))
          .isInstanceOf(InvalidTaskException.class)
          .hasMessageContaining("maxAttempts");
      assertThatThrownBy(() -> outbox.enqueue(TaskRequest.to("Bad Name!")))
          .isInstanceOf(InvalidTaskException.class)
          .hasMessageContaining("handler");
      assertThatThrownBy(
              () -> outbox.enqueue(TaskRequest.to("fine.task").payload("x".repeat(300_000))))
          .isInstanceOf(InvalidTaskException.class)
          .hasMessageContaining("payload");
      c.commit();
    }
    assertThat(db.count()).isZero();
  }

  @Test
  void autoCommitConnectionIsRefused() throws Exception {
    try (Connection c = db.connect()) {
      assertThatThrownBy(() -> JdbcTaskOutbox.of(c).enqueue(TaskRequest.to("order.cancel")))
          .isInstanceOf(NoActiveTransactionException.class)
          .hasMessageContaining("auto-commit");
    }
    assertThat(db.count()).isZero();
  }
}
