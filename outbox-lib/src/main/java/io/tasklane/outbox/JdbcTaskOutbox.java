package io.tasklane.outbox;

import java.sql.Connection;
import javax.sql.DataSource;

/**
 * The {@link TaskOutbox} for services without JPA: writes through a JDBC connection whose
 * auto-commit is off. Same contract as {@link TaskOutbox}: call it inside the transaction, on its
 * thread; the outbox never commits, rolls back or closes the transaction's connection.
 *
 * <pre>{@code
 * try (Connection c = dataSource.getConnection()) {
 *   c.setAutoCommit(false);
 *   insertOrder(c, order);
 *   JdbcTaskOutbox.of(c).enqueue(TaskRequest.to("order.cancel").payload(order.id()));
 *   c.commit();
 * }
 * }</pre>
 */
public interface JdbcTaskOutbox extends TaskOutbox {

  /** An outbox bound to one connection (cheap: create one per transaction if you like). */
  static JdbcTaskOutbox of(Connection connection) {
    return TaskOutbox.builder().jdbc(connection);
  }

  /**
   * An outbox asking {@code source} for the current transaction's connection on each call and
   * giving it back after the call ({@link ConnectionSource#release}), refused calls included.
   */
  static JdbcTaskOutbox of(ConnectionSource source) {
    return TaskOutbox.builder().jdbc(source);
  }

  /**
   * An outbox over a <em>transaction-aware</em> data source, one whose {@code getConnection()}
   * returns the current transaction's connection (Spring's {@code TransactionAwareDataSourceProxy},
   * Micronaut's transaction-aware {@code DataSource} bean). The handle is closed after each call,
   * which such data sources treat as a release. A plain pool hands out auto-commit connections, so
   * every call would fail with {@link NoActiveTransactionException}: use {@link #of(Connection)}
   * instead.
   */
  static JdbcTaskOutbox of(DataSource transactionAwareDataSource) {
    return TaskOutbox.builder().jdbc(transactionAwareDataSource);
  }
}
