package io.tasklane.relay.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;

/**
 * Deletes relayed rows: {@code id <= watermark AND created_at < now - retention}, in statements of
 * at most {@code batchSize} rows ({@code ORDER BY id LIMIT n}, see {@link #sql}), so no long lock
 * is held.
 *
 * <p>The watermark is the highest row id whose record Kafka acknowledged. Row ids are allocated at
 * insert time but become visible at commit, so a row below the watermark may still be unrelayed
 * while its transaction is open; the age condition covers that. A transaction kept open longer than
 * the retention could lose its rows if a purge raced its commit — keep the retention well above the
 * longest transaction (default 1 h). Called by the leader loop thread.
 */
final class Purger {
  private final Jdbc jdbc;
  private final String table;
  private final int batchSize;
  private final Duration retention;
  private final Clock clock;
  private final boolean postgres;

  Purger(Jdbc jdbc, String table, int batchSize, Duration retention, Clock clock) {
    this(jdbc, table, batchSize, retention, clock, false);
  }

  Purger(
      Jdbc jdbc, String table, int batchSize, Duration retention, Clock clock, boolean postgres) {
    this.postgres = postgres;
    this.jdbc = jdbc;
    this.table = table;
    this.batchSize = batchSize;
    this.retention = retention;
    this.clock = clock;
  }

  /** One purge pass. Returns the number of rows deleted. */
  Result purge(long watermark) throws SQLException {
    if (watermark <= 0) {
      return new Result(0, 0);
    }
    long cutoff = clock.millis() - retention.toMillis();
    long total = 0;
    int statements = 0;
    try (Connection c = jdbc.open();
        PreparedStatement ps = c.prepareStatement(sql())) {
      while (true) {
        ps.setLong(1, watermark);
        ps.setLong(2, cutoff);
        int n = ps.executeUpdate();
        statements++;
        total += n;
        if (n < batchSize) {
          return new Result(total, statements);
        }
      }
    }
  }

  /**
   * The batch DELETE: MariaDB/MySQL take {@code ORDER BY .. LIMIT} on DELETE (and refuse LIMIT in
   * an IN subquery); PostgreSQL takes neither on DELETE, so it deletes the ids a subquery picks.
   */
  String sql() {
    String where = " WHERE id <= ? AND created_at < ? ORDER BY id LIMIT " + batchSize;
    return postgres
        ? "DELETE FROM " + table + " WHERE id IN (SELECT id FROM " + table + where + ")"
        : "DELETE FROM " + table + where;
  }

  /** Rows deleted and DELETE statements run by one pass. */
  record Result(long rows, int statements) {}
}
