package io.tasklane.outbox;

import io.tasklane.core.outbox.OutboxRow;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Function;

/**
 * Writes through the current transaction's JDBC connection, and gives the connection back to its
 * source after every call, the refused ones included.
 */
final class JdbcRowSink implements RowSink {
  private final ConnectionSource source;

  JdbcRowSink(ConnectionSource source) {
    this.source = source;
  }

  @Override
  public <T> T write(Function<Tx, T> work) {
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
    RuntimeException failure = null;
    T result = null;
    try {
      requireTransaction(connection);
      result = work.apply(new ConnectionTx(connection));
    } catch (SQLException e) {
      failure = new OutboxException("could not use the transaction's JDBC connection: " + e, e);
    } catch (RuntimeException e) {
      failure = e;
    }
    release(connection, failure);
    return result;
  }

  /** The statements of one call on the transaction's connection. */
  private record ConnectionTx(Connection connection) implements Tx {
    @Override
    public void insert(List<OutboxRow> rows) {
      try {
        OutboxInserts.insert(connection, rows);
      } catch (SQLException e) {
        throw new OutboxException(
            "could not insert " + rows.size() + " row(s) into " + OutboxSchema.TABLE + ": " + e, e);
      }
    }

    @Override
    public List<UniqueWindows.Outcome> claim(List<UniqueWindows.Claim> claims) {
      return UniqueWindows.claim(connection, claims);
    }
  }

  /** Gives the connection back; a failure to do so is added to the call's, or thrown alone. */
  private void release(Connection connection, RuntimeException failure) {
    try {
      source.release(connection);
    } catch (SQLException | RuntimeException e) {
      if (failure == null) {
        throw new OutboxException(
            "could not give the JDBC connection back to its source (the rows are in the"
                + " transaction; roll it back to drop them): "
                + e,
            e);
      }
      failure.addSuppressed(e);
    }
    if (failure != null) {
      throw failure;
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

  @Override
  public String toString() {
    return "jdbc";
  }
}
