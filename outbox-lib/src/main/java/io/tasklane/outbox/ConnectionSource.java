package io.tasklane.outbox;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Supplies the JDBC connection of the caller's current transaction, e.g. Spring's {@code
 * DataSourceUtils::getConnection} or a connection held by the application. The outbox never
 * commits, rolls back or closes it. Called on the enqueuing thread, once per outbox call.
 */
@FunctionalInterface
public interface ConnectionSource {
  /** The connection the current transaction runs on. */
  Connection currentConnection() throws SQLException;
}
