package io.tasklane.relay.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;

/**
 * Deletes the rows of {@code tasklane_unique} (the outbox library's unique windows, written in the
 * applications' transactions next to the outbox table) whose window ended more than {@link #GRACE}
 * ago, in statements of at most {@code batchSize} rows. An ended window is free whether its row is
 * there or not (the next enqueue of its key replaces it), so the purge only bounds the table; the
 * grace keeps it off windows that an application whose clock lags the relay's still holds. Deleting
 * re-checks the end time on the row it locks, so a window an enqueue renewed meanwhile stays. A
 * database without the table is skipped. Called by the leader loop thread.
 */
final class UniquePurger {
  /** The table's name: a contract with the outbox library ({@code OutboxSchema.UNIQUE_TABLE}). */
  static final String TABLE = "tasklane_unique";

  /** How long after its end a window's row is kept: room for clock differences. */
  static final Duration GRACE = Duration.ofMinutes(5);

  private final Jdbc jdbc;
  private final String table;
  private final int batchSize;
  private final Clock clock;
  private final boolean postgres;

  /**
   * @param schema the outbox table's schema on PostgreSQL (the table lives beside it), else null
   */
  UniquePurger(Jdbc jdbc, String schema, int batchSize, Clock clock, boolean postgres) {
    this.jdbc = jdbc;
    this.table = postgres && schema != null ? schema + "." + TABLE : TABLE;
    this.batchSize = batchSize;
    this.clock = clock;
    this.postgres = postgres;
  }

  /** One purge pass: the rows deleted, or {@link Result#NO_TABLE} without the table. */
  Result purge() throws SQLException {
    long cutoff = clock.millis() - GRACE.toMillis();
    long total = 0;
    int statements = 0;
    try (Connection c = jdbc.open();
        PreparedStatement ps = c.prepareStatement(sql())) {
      while (true) {
        ps.setLong(1, cutoff);
        if (postgres) {
          ps.setLong(2, cutoff);
        }
        int n;
        try {
          n = ps.executeUpdate();
        } catch (SQLException e) {
          if (statements == 0 && missingTable(e)) {
            return Result.NO_TABLE;
          }
          throw e;
        }
        statements++;
        total += n;
        if (n < batchSize) {
          return new Result(total, statements);
        }
      }
    }
  }

  /**
   * The batch DELETE, as {@link Purger#sql}: MariaDB/MySQL take {@code ORDER BY .. LIMIT}; on
   * PostgreSQL a subquery picks the keys and the outer condition is checked again on the locked
   * row.
   */
  String sql() {
    String where = " WHERE expires_at < ? ORDER BY expires_at LIMIT " + batchSize;
    return postgres
        ? "DELETE FROM "
            + table
            + " WHERE key_id IN (SELECT key_id FROM "
            + table
            + where
            + ") AND expires_at < ?"
        : "DELETE FROM " + table + where;
  }

  /** MariaDB/MySQL 42S02 (error 1146), PostgreSQL 42P01: the table does not exist. */
  static boolean missingTable(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s
          && ("42S02".equals(s.getSQLState())
              || "42P01".equals(s.getSQLState())
              || s.getErrorCode() == 1146)) {
        return true;
      }
    }
    return false;
  }

  /** Rows deleted and DELETE statements run by one pass. */
  record Result(long rows, int statements) {
    /** The database has no {@link #TABLE}: nothing to purge. */
    static final Result NO_TABLE = new Result(0, 0);
  }
}
