package io.tasklane.worker.spi;

import io.tasklane.worker.JdbcWork;
import java.sql.Connection;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Runs database work in one transaction of the application's database: the transaction that holds a
 * task's processed mark and the handler's writes ({@code TaskContext.inTransaction}). The default,
 * {@link #jdbc}, begins and ends a plain JDBC transaction on a connection of the pool; a framework
 * adapter may supply one that runs in the framework's transaction instead. Called on the handler's
 * pool thread; must be thread-safe.
 */
public interface WorkerTransactions {
  /**
   * Runs {@code work} in one new transaction: commits when it returns, rolls back when it throws
   * (and rethrows what it threw).
   */
  <R> R inTransaction(JdbcWork<R> work) throws Exception;

  /**
   * Plain JDBC transactions on {@code dataSource}, which must hand out the pool's own connections
   * (not a framework's transaction-bound proxy): one connection per call, auto-commit off for the
   * call and restored after.
   */
  static WorkerTransactions jdbc(DataSource dataSource) {
    Objects.requireNonNull(dataSource, "dataSource");
    return new WorkerTransactions() {
      @Override
      public <R> R inTransaction(JdbcWork<R> work) throws Exception {
        try (Connection c = dataSource.getConnection()) {
          boolean autoCommit = c.getAutoCommit();
          c.setAutoCommit(false);
          try {
            R result = work.run(c);
            c.commit();
            return result;
          } catch (Throwable t) {
            try {
              c.rollback();
            } catch (java.sql.SQLException e) {
              t.addSuppressed(e);
            }
            throw t;
          } finally {
            c.setAutoCommit(autoCommit);
          }
        }
      }
    };
  }
}
