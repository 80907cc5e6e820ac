package io.tasklane.outbox;

import io.tasklane.core.outbox.OutboxRow;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** Writes through the current transaction's JDBC connection. */
final class JdbcRowSink implements RowSink {
  private final ConnectionSource source;
  private final boolean closeAfterUse;

  JdbcRowSink(ConnectionSource source, boolean closeAfterUse) {
    this.source = source;
    this.closeAfterUse = closeAfterUse;
  }

  @Override
  public void insert(List<OutboxRow> rows) {
    Connection connection;
    try {
      connection = source.currentConnection();
    } catch (SQLException e) {
      throw new OutboxException("could not obtain the transaction's JDBC connection: " + e, e);
    }
    if (connection == null) {
      throw new NoActiveTransactionException(
          "no JDBC connection is bound to the current transaction; start a transaction first");
    }
    try {
      requireTransaction(connection);
      OutboxInserts.insert(connection, rows);
    } catch (SQLException e) {
      throw new OutboxException(
          "could not insert " + rows.size() + " row(s) into " + OutboxSchema.TABLE + ": " + e, e);
    } finally {
      if (closeAfterUse) {
        closeQuietly(connection);
      }
    }
  }

  private static void requireTransaction(Connection connection) throws SQLException {
    if (connection.isClosed()) {
      throw new NoActiveTransactionException(
          "the JDBC connection is closed; enqueue inside the transaction, before commit");
    }
    if (connection.getAutoCommit()) {
      throw new NoActiveTransactionException(
          "the JDBC connection is in auto-commit mode, so the task would not commit with your"
              + " data; call connection.setAutoCommit(false) (or use your framework's"
              + " @Transactional) and enqueue inside that transaction");
    }
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // A release handle of a transaction-aware data source; nothing to do.
    }
  }

  @Override
  public String toString() {
    return "jdbc";
  }
}
