package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.WireCodec;
import io.tasklane.outbox.OutboxSchema;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code tasklane_outbox} altered while the relay streams (Debezium reads the DDL from the binlog):
 * an added column is ignored; a row lacking a contract column goes to the relay DLT naming the
 * column, the relay keeps streaming (no restart), /health says which column; restoring the column
 * lets rows flow again. A fresh database per test.
 */
@TasklaneStack
class OutboxAlteredTest {
  private final LocalStack stack;
  private RelayFixture fx;
  private Relay relay;
  private TopicReader tasks;
  private TopicReader dlt;

  OutboxAlteredTest(LocalStack stack) {
    this.stack = stack;
  }

  @BeforeEach
  void start() throws Exception {
    fx = new RelayFixture(stack, "relay_alter");
    tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks());
    dlt = new TopicReader(stack.bootstrapServers(), fx.topics.relayDlt());
    relay = fx.startRelay(Clock.systemUTC());
    assertThat(relay.awaitStreaming(Duration.ofSeconds(90)))
        .as("relay streaming; state %s", relay.status())
        .isTrue();
  }

  @AfterEach
  void stop() throws Exception {
    if (relay != null) {
      relay.close();
    }
    if (tasks != null) {
      tasks.close();
    }
    if (dlt != null) {
      dlt.close();
    }
  }

  @Test
  void aRenamedHandlerColumnDeadLettersRowsNamingItAndRowsFlowAgainOnceItIsRestored()
      throws Exception {
    try (Connection c = fx.connect()) {
      String before = fx.insertTasks(c, 1, "before.alter").get(0);
      awaitOnTasks(before);

      alter(c, "ALTER TABLE tasklane_outbox RENAME COLUMN handler TO handler_name");
      long first = insertAltered(c, "handler_name");
      long second = insertAltered(c, "handler_name");
      String reason = "handler: column missing — was tasklane_outbox altered?";
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> assertThat(dlt.firstByKey).containsKeys(String.valueOf(first), "" + second));
      for (long rowId : List.of(first, second)) {
        ConsumerRecord<String, byte[]> dead = dlt.firstByKey.get(String.valueOf(rowId));
        assertThat(header(dead, "tasklane.relay.reason")).isEqualTo(reason);
        JsonNode value = WireCodec.readTree(new String(dead.value(), StandardCharsets.UTF_8));
        assertThat(value.path("reason").asText()).isEqualTo(reason);
        assertThat(value.path("row").path("handler_name").asText()).isEqualTo("renamed.column");
      }
      assertThat(relay.status().missingColumns()).containsExactly("handler");
      assertThat(relay.state()).isEqualTo(RelayState.STREAMING);
      JsonNode health = health();
      assertThat(health.path("state").asText()).isEqualTo("streaming");
      assertThat(health.path("missingColumns").toString()).isEqualTo("[\"handler\"]");
      assertThat(relay.metricsText())
          .contains("tasklane_relay_outbox_missing_columns 1.0")
          .contains("tasklane_relay_missing_column_rows_total 2.0")
          .contains("tasklane_relay_leaderships_total 1.0"); // kept streaming, no restart

      alter(c, "ALTER TABLE tasklane_outbox RENAME COLUMN handler_name TO handler");
      String after = fx.insertTasks(c, 1, "after.restore").get(0);
      awaitOnTasks(after);
    }
    assertThat(relay.status().missingColumns()).isEmpty();
    assertThat(health().path("missingColumns").toString()).isEqualTo("[]");
    assertThat(relay.status().deadLettered()).isEqualTo(2);
    assertThat(relay.metricsText()).contains("tasklane_relay_leaderships_total 1.0");
  }

  @Test
  void aDroppedHeadersColumnDeadLettersRowsNamingItUntilTheColumnIsAddedBack() throws Exception {
    try (Connection c = fx.connect()) {
      alter(c, "ALTER TABLE tasklane_outbox DROP COLUMN headers");
      long rowId = insertWithout(c, "headers");
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(() -> assertThat(dlt.firstByKey).containsKey(String.valueOf(rowId)));
      assertThat(header(dlt.firstByKey.get(String.valueOf(rowId)), "tasklane.relay.reason"))
          .isEqualTo("headers: column missing — was tasklane_outbox altered?");
      assertThat(relay.status().missingColumns()).containsExactly("headers");

      alter(c, "ALTER TABLE tasklane_outbox ADD COLUMN headers TEXT NULL AFTER depends_on");
      String after = fx.insertTasks(c, 1, "headers.back").get(0);
      awaitOnTasks(after);
    }
    assertThat(relay.status().missingColumns()).isEmpty();
    assertThat(relay.state()).isEqualTo(RelayState.STREAMING);
  }

  @Test
  void anAddedColumnIsIgnoredAndRowsKeepFlowing() throws Exception {
    String plain;
    String withExtra = TaskIds.keyless(Clock.systemUTC());
    try (Connection c = fx.connect()) {
      alter(c, "ALTER TABLE tasklane_outbox ADD COLUMN extra INT NULL");
      plain = fx.insertTasks(c, 1, "added.column").get(0);
      try (PreparedStatement ps =
          c.prepareStatement(
              RelayFixture.INSERT
                  .replace("created_at)", "created_at, extra)")
                  .replace("?)", "?,?)"))) {
        RelayFixture.bindTask(
            ps, withExtra, withExtra, "added.column", "{}", System.currentTimeMillis());
        ps.setInt(14, 7);
        ps.executeUpdate();
      }
    }
    awaitOnTasks(plain);
    awaitOnTasks(withExtra);
    assertThat(dlt.records).isEmpty();
    assertThat(relay.status().missingColumns()).isEmpty();
    assertThat(relay.status().deadLettered()).isZero();
  }

  @Test
  void aTableNotYetMigratedToSchemaVersionTwoIsRelayedAndAfterTheMigrationOptionsTravel()
      throws Exception {
    String good = TaskIds.keyless(Clock.systemUTC());
    String after = TaskIds.keyless(Clock.systemUTC());
    String v1;
    long badRow;
    try (Connection c = fx.connect()) {
      alter(c, "ALTER TABLE tasklane_outbox DROP COLUMN options"); // the table of schema 1
      v1 = fx.insertTasks(c, 1, "schema.one").get(0);
      awaitOnTasks(v1);

      alter(c, OutboxSchema.resource(OutboxSchema.FLYWAY_MIGRATION_V2).replace(";", ""));
      insertWithOptions(c, good, "{\"v\":1,\"waitTimeoutMs\":60000}");
      badRow = insertWithOptions(c, TaskIds.keyless(Clock.systemUTC()), "{\"waitTimeoutMs\":");
      insertWithOptions(c, after, null);
    }
    awaitOnTasks(good);
    awaitOnTasks(after);
    assertThat(envelope(v1).options()).isEqualTo(TaskOptions.none());
    assertThat(envelope(good).options().waitTimeoutMs()).isEqualTo(60_000L);
    assertThat(envelope(after).options()).isEqualTo(TaskOptions.none());
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(dlt.firstByKey).containsKey(String.valueOf(badRow)));
    assertThat(header(dlt.firstByKey.get(String.valueOf(badRow)), "tasklane.relay.reason"))
        .startsWith("options: ");
    assertThat(dlt.records).hasSize(1);
    assertThat(relay.status().missingColumns()).isEmpty();
    assertThat(relay.state()).isEqualTo(RelayState.STREAMING);
  }

  private TaskEnvelope envelope(String id) {
    return (TaskEnvelope) WireCodec.decodeTaskRecord(tasks.firstByKey.get(id).value());
  }

  /** A TASK row with {@code options} in the column of schema version 2; its row id. */
  private static long insertWithOptions(Connection c, String id, String options)
      throws SQLException {
    String sql =
        RelayFixture.INSERT.replace("created_at)", "created_at, options)").replace("?)", "?,?)");
    try (PreparedStatement ps = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
      RelayFixture.bindTask(ps, id, id, "schema.two", "{}", System.currentTimeMillis());
      ps.setString(14, options);
      ps.executeUpdate();
      try (var keys = ps.getGeneratedKeys()) {
        keys.next();
        return keys.getLong(1);
      }
    }
  }

  private void awaitOnTasks(String id) {
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(tasks.firstByKey).containsKey(id));
  }

  private static void alter(Connection c, String ddl) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(ddl);
    }
  }

  /** A TASK row of the altered table whose handler column is now {@code handlerColumn}. */
  private static long insertAltered(Connection c, String handlerColumn) throws SQLException {
    String sql = RelayFixture.INSERT.replace("kind, handler,", "kind, " + handlerColumn + ",");
    try (PreparedStatement ps = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
      String id = TaskIds.keyless(Clock.systemUTC());
      RelayFixture.bindTask(ps, id, id, "renamed.column", "{}", System.currentTimeMillis());
      ps.executeUpdate();
      return generatedKey(ps);
    }
  }

  /** A TASK row of a table that lacks {@code column} (bound to null in the contract insert). */
  private static long insertWithout(Connection c, String column) throws SQLException {
    String sql =
        "INSERT INTO tasklane_outbox (task_id, routing_key, kind, handler, payload, due_at,"
            + " max_attempts, timeout_ms, created_at) VALUES (?,?,'TASK','dropped.column','{}',?,25,"
            + "300000,?)";
    assertThat(sql).doesNotContain(column);
    try (PreparedStatement ps = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
      String id = TaskIds.keyless(Clock.systemUTC());
      long now = System.currentTimeMillis();
      ps.setString(1, id);
      ps.setString(2, id);
      ps.setLong(3, now);
      ps.setLong(4, now);
      ps.executeUpdate();
      return generatedKey(ps);
    }
  }

  private static long generatedKey(PreparedStatement ps) throws SQLException {
    try (var keys = ps.getGeneratedKeys()) {
      keys.next();
      return keys.getLong(1);
    }
  }

  private static String header(ConsumerRecord<String, byte[]> r, String name) {
    return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }

  private JsonNode health() throws Exception {
    var response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + relay.httpPort() + "/health"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return WireCodec.readTree(response.body());
  }
}
