package io.tasklane.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;

/**
 * Supplies the JDBC connection of the caller's current transaction, and takes it back: the outbox
 * calls {@link #currentConnection()} once per outbox call, on the enqueuing thread, and then {@link
 * #release(Connection)} once with what it got, whether it wrote, refused the call (no transaction)
 * or failed. The outbox never commits or rolls back the connection.
 *
 * <p>A connection held by the application: {@code () -> connection} (the default {@code release}
 * leaves a transaction's connection open). A helper that binds connections to transactions, such as
 * Spring's {@code DataSourceUtils}, lends a fresh pooled connection when no transaction is active;
 * pair its two calls, so that every connection it lends goes back:
 *
 * <pre>{@code
 * JdbcTaskOutbox outbox =
 *     JdbcTaskOutbox.of(
 *         ConnectionSource.of(
 *             () -> DataSourceUtils.getConnection(dataSource),
 *             c -> DataSourceUtils.releaseConnection(c, dataSource)));
 * }</pre>
 */
@FunctionalInterface
public interface ConnectionSource {
  /** The connection the current transaction runs on; null when there is none. */
  Connection currentConnection() throws SQLException;

  /**
   * Gives back a connection {@link #currentConnection()} returned, once per outbox call, after the
   * outbox used or refused it; on the enqueuing thread. The default leaves a transaction's
   * connection (auto-commit off) open, and closes one in auto-commit mode: that one belongs to no
   * transaction, so it was taken for this call (from a pool, say), and closing it gives it back.
   */
  default void release(Connection connection) throws SQLException {
    if (!connection.isClosed() && connection.getAutoCommit()) {
      connection.close();
    }
  }

  /** A source that gets connections with {@code get} and gives each back with {@code release}. */
  static ConnectionSource of(ConnectionSource get, Release release) {
    Objects.requireNonNull(get, "get");
    Objects.requireNonNull(release, "release");
    return new ConnectionSource() {
      @Override
      public Connection currentConnection() throws SQLException {
        return get.currentConnection();
      }

      @Override
      public void release(Connection connection) throws SQLException {
        release.release(connection);
      }
    };
  }

  /** How a {@link ConnectionSource#of(ConnectionSource, Release) paired source} gives back. */
  @FunctionalInterface
  interface Release {
    /** Gives back {@code connection}; called once per connection the source returned. */
    void release(Connection connection) throws SQLException;
  }
}
