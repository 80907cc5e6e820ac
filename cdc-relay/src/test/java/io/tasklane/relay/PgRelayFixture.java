package io.tasklane.relay;

import io.tasklane.core.Topics;
import io.tasklane.outbox.OutboxSchema;
import io.tasklane.testkit.LocalPostgres;
import io.tasklane.testkit.LocalStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/** One test class's PostgreSQL database (on the stack's private server), topics and slot. */
final class PgRelayFixture {
  final LocalStack stack;
  final LocalPostgres pg;
  final String database;
  final String jdbcUrl;
  final Topics topics;

  PgRelayFixture(LocalStack stack, String prefix) {
    this.stack = stack;
    this.pg = stack.postgres();
    String unique = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    this.database = prefix + "_" + unique;
    this.jdbcUrl = pg.createDatabase(database);
    this.topics = new Topics("t" + unique);
    try (var admin =
        org.apache.kafka.clients.admin.Admin.create(
            Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      io.tasklane.core.TopicAdmin.ensure(
          admin,
          List.of(
              io.tasklane.core.TopicAdmin.Spec.of(topics.tasks(), 3),
              io.tasklane.core.TopicAdmin.Spec.of(topics.relayDlt(), 1)));
    }
    try (Connection c = connect()) {
      OutboxSchema.create(c); // the PostgreSQL DDL, picked from the connection
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl, pg.username(), pg.password());
  }

  Map<String, String> properties(String... extra) {
    Map<String, String> p = new HashMap<>();
    p.put("tasklane.relay.jdbc-url", jdbcUrl);
    p.put("tasklane.relay.username", pg.username());
    p.put("tasklane.relay.password", pg.password());
    p.put("tasklane.relay.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.relay.namespace", topics.namespace());
    p.put("tasklane.relay.http-port", "0");
    p.put("tasklane.relay.poll-interval", "10ms");
    p.put("tasklane.relay.tasks-partitions", "3");
    p.put("tasklane.relay.binlog-guard-interval", "1s"); // the slot guard reads every second
    for (int i = 0; i + 1 < extra.length; i += 2) {
      p.put(extra[i], extra[i + 1]);
    }
    return p;
  }

  Relay startRelay(String... extra) {
    return Relay.start(RelayConfig.fromProperties(properties(extra)), Clock.systemUTC());
  }

  String slotName() {
    return RelayConfig.fromProperties(properties()).slotName();
  }

  /** Runs {@code sql} statements on a new connection (autocommit). */
  void execute(String... sql) throws SQLException {
    try (Connection c = connect();
        var st = c.createStatement()) {
      for (String q : sql) {
        st.execute(q);
      }
    }
  }

  /** The slot's {@code wal_status}, or null when the server has no such slot. */
  String walStatus() throws SQLException {
    try (Connection c = connect();
        PreparedStatement ps =
            c.prepareStatement("SELECT wal_status FROM pg_replication_slots WHERE slot_name = ?")) {
      ps.setString(1, slotName());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  long count() throws SQLException {
    try (Connection c = connect();
        ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM tasklane_outbox")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Drops the relay's slot once it is inactive (slots are cluster-wide and hold WAL). */
  void dropSlot() throws Exception {
    dropSlot(slotName());
  }

  /** Drops {@code slot} once it is inactive; gives up quietly after 30 s (e.g. no such slot). */
  void dropSlot(String slot) throws Exception {
    try (Connection c = connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                    + " WHERE slot_name = ? AND NOT active")) {
      ps.setString(1, slot);
      Awaitility.await("inactive slot " + slot + " dropped")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> {
                try (ResultSet rs = ps.executeQuery()) {
                  return rs.next();
                }
              });
    } catch (ConditionTimeoutException stillActiveOrAbsent) {
      // cleanup never fails a test
    }
  }
}
