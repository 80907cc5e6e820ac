package io.tasklane.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/** The INSERT statement of {@code tasklane_outbox} and its binding; one JDBC batch per call. */
final class OutboxInserts {
  static final String SQL =
      "INSERT INTO "
          + OutboxSchema.TABLE
          + " (task_id, routing_key, kind, handler, task_key, payload, due_at, max_attempts,"
          + " timeout_ms, backoff, depends_on, headers, created_at)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private OutboxInserts() {}

  /** Inserts {@code rows} on {@code connection}: one statement, one batch when more than one. */
  static void insert(Connection connection, List<OutboxRow> rows) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(SQL)) {
      if (rows.size() == 1) {
        bind(ps, rows.get(0));
        ps.executeUpdate();
        return;
      }
      for (OutboxRow row : rows) {
        bind(ps, row);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static void bind(PreparedStatement ps, OutboxRow row) throws SQLException {
    ps.setString(1, row.taskId());
    ps.setString(2, row.routingKey());
    ps.setString(3, row.kind());
    text(ps, 4, row.handler());
    text(ps, 5, row.taskKey());
    text(ps, 6, row.payload());
    ps.setLong(7, row.dueAt());
    ps.setInt(8, row.maxAttempts());
    ps.setLong(9, row.timeoutMs());
    text(ps, 10, row.backoff());
    text(ps, 11, row.dependsOn());
    text(ps, 12, row.headers());
    ps.setLong(13, row.createdAt());
  }

  private static void text(PreparedStatement ps, int index, String value) throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.VARCHAR);
    } else {
      ps.setString(index, value);
    }
  }
}
