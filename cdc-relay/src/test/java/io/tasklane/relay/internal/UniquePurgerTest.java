package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.outbox.OutboxSchema;
import io.tasklane.relay.RelayConfig;
import io.tasklane.relay.RelayFixture;
import io.tasklane.testkit.LocalPostgres;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The purge of ended unique windows ({@code tasklane_unique}, created by the outbox library's
 * {@link OutboxSchema#create}) against the real MariaDB and PostgreSQL: ended more than the grace
 * ago, in batches; a database without the table is skipped.
 */
@TasklaneStack
class UniquePurgerTest {
  static final long NOW = System.currentTimeMillis();

  @Test
  void deletesWindowsEndedMoreThanTheGraceAgoInBatchesOnMariaDb(LocalStack stack) throws Exception {
    var fx = new RelayFixture(stack, "relay_unique");
    var config = RelayConfig.fromProperties(fx.properties());
    purgesOnlyEndedWindows(fx::connect, config);
  }

  @Test
  void deletesWindowsEndedMoreThanTheGraceAgoInBatchesOnPostgresql(LocalStack stack)
      throws Exception {
    LocalPostgres pg = stack.postgres();
    String url = pg.createDatabase("relay_unique_" + UUID.randomUUID().toString().substring(0, 8));
    Db db = () -> DriverManager.getConnection(url, pg.username(), pg.password());
    try (Connection c = db.connect()) {
      OutboxSchema.create(c);
    }
    var fx = new RelayFixture(stack, "relay_unique_pgprops");
    var config =
        RelayConfig.fromProperties(
            fx.properties(
                "tasklane.relay.jdbc-url", url,
                "tasklane.relay.username", pg.username(),
                "tasklane.relay.password", pg.password()));
    assertThat(config.postgres()).isTrue();
    purgesOnlyEndedWindows(db, config);
  }

  private static void purgesOnlyEndedWindows(Db db, RelayConfig config) throws Exception {
    long longAgo = NOW - Duration.ofHours(2).toMillis();
    long inGrace = NOW - Duration.ofMinutes(1).toMillis();
    long ahead = NOW + Duration.ofHours(1).toMillis();
    try (Connection c = db.connect()) {
      insert(c, "ended", 2010, longAgo);
      insert(c, "grace", 3, inGrace);
      insert(c, "held", 4, ahead);
    }
    var purger =
        new UniquePurger(
            new Jdbc(config),
            config.postgres() ? config.schema() : null,
            1000,
            Clock.systemUTC(),
            config.postgres());

    UniquePurger.Result result = purger.purge();

    assertThat(result.rows()).isEqualTo(2010);
    assertThat(result.statements()).isEqualTo(3); // 1000 + 1000 + 10
    assertThat(handlers(db)).containsOnly("grace", "held").hasSize(7);
    assertThat(purger.purge().rows()).isZero();

    try (Connection c = db.connect()) {
      c.createStatement().execute("DROP TABLE tasklane_unique");
    }
    assertThat(purger.purge()).as("no table: skipped").isEqualTo(UniquePurger.Result.NO_TABLE);
  }

  private static void insert(Connection c, String handler, int n, long expiresAt)
      throws SQLException {
    c.setAutoCommit(false);
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO tasklane_unique (key_id, handler, unique_key, task_id, expires_at)"
                + " VALUES (?, ?, ?, ?, ?)")) {
      for (int i = 0; i < n; i++) {
        String id = UUID.randomUUID().toString();
        ps.setString(1, id);
        ps.setString(2, handler);
        ps.setString(3, "k" + i);
        ps.setString(4, id);
        ps.setLong(5, expiresAt);
        ps.addBatch();
      }
      ps.executeBatch();
      c.commit();
    } finally {
      c.setAutoCommit(true);
    }
  }

  private static List<String> handlers(Db db) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = db.connect();
        ResultSet rs = c.createStatement().executeQuery("SELECT handler FROM tasklane_unique")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  @FunctionalInterface
  interface Db {
    Connection connect() throws SQLException;
  }
}
