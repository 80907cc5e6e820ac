package io.tasklane.outbox;

import io.tasklane.core.outbox.OutboxColumn;
import io.tasklane.core.outbox.OutboxRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The INSERT statement of {@code tasklane_outbox} ({@link OutboxColumn#inserted()}, in table order)
 * and its binding; one JDBC batch per call. Runs on the caller's thread and connection.
 */
final class OutboxInserts {
  private static final List<OutboxColumn> COLUMNS = OutboxColumn.inserted();

  static final String SQL =
      "INSERT INTO "
          + OutboxSchema.TABLE
          + " ("
          + COLUMNS.stream().map(OutboxColumn::columnName).collect(Collectors.joining(", "))
          + ") VALUES ("
          + String.join(", ", Collections.nCopies(COLUMNS.size(), "?"))
          + ")";

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
    int index = 1;
    for (OutboxColumn column : COLUMNS) {
      Object value = column.get(row);
      switch (column.value()) {
        case LONG -> ps.setLong(index, (long) value);
        case INT -> ps.setInt(index, (int) value);
        case TEXT -> text(ps, index, (String) value);
      }
      index++;
    }
  }

  private static void text(PreparedStatement ps, int index, String value) throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.VARCHAR);
    } else {
      ps.setString(index, value);
    }
  }
}
