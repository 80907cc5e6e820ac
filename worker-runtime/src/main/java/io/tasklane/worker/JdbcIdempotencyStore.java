package io.tasklane.worker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The JDBC idempotency store: table {@code tasklane_processed (task_id CHAR(36) PRIMARY KEY,
 * handler VARCHAR(100), processed_at BIGINT)} (DDL in {@link #DDL_RESOURCE}, created by {@link
 * #createTable()}).
 *
 * <p>Exactly-once effects: {@link #inTransaction} inserts the task id first and runs the handler's
 * work on the same connection, so the mark and the handler's writes commit together. A concurrent
 * duplicate blocks on the row lock until the first commits, then sees the duplicate key and gets
 * {@link AlreadyProcessedException}. Written for MySQL and MariaDB. Thread-safe; each call takes
 * its own connection from the DataSource.
 */
public final class JdbcIdempotencyStore implements IdempotencyStore {
  /** Classpath resource holding the table's DDL. */
  public static final String DDL_RESOURCE = "/io/tasklane/worker/tasklane_processed.sql";

  private static final String INSERT =
      "INSERT INTO tasklane_processed (task_id, handler, processed_at) VALUES (?, ?, ?)";

  private final DataSource dataSource;
  private final Clock clock;

  public JdbcIdempotencyStore(DataSource dataSource, Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The DataSource handlers' transactions run on. */
  public DataSource dataSource() {
    return dataSource;
  }

  /** Creates {@code tasklane_processed} if it does not exist. */
  public void createTable() {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute(ddl());
    } catch (SQLException e) {
      throw new WorkerException("cannot create table tasklane_processed: " + e.getMessage(), e);
    }
  }

  /** The DDL of the table (CREATE TABLE IF NOT EXISTS). */
  public static String ddl() {
    try (InputStream in = JdbcIdempotencyStore.class.getResourceAsStream(DDL_RESOURCE)) {
      if (in == null) {
        throw new WorkerException("missing classpath resource " + DDL_RESOURCE);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim().replaceAll(";$", "");
    } catch (IOException e) {
      throw new WorkerException("cannot read " + DDL_RESOURCE, e);
    }
  }

  @Override
  public boolean isProcessed(String taskId) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT 1 FROM tasklane_processed WHERE task_id = ?")) {
      ps.setString(1, taskId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    } catch (SQLException e) {
      throw new WorkerException("cannot read tasklane_processed: " + e.getMessage(), e);
    }
  }

  @Override
  public void markProcessed(String taskId, String handler) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      tryMark(c, taskId, handler);
    } catch (SQLException e) {
      throw new WorkerException("cannot write tasklane_processed: " + e.getMessage(), e);
    }
  }

  /**
   * Inserts the mark on {@code connection} (in its current transaction).
   *
   * @return false if the task id is already there
   */
  public boolean tryMark(Connection connection, String taskId, String handler) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
      ps.setString(1, taskId);
      ps.setString(2, handler);
      ps.setLong(3, clock.millis());
      ps.executeUpdate();
      return true;
    } catch (SQLException e) {
      if (e.getSQLState() != null && e.getSQLState().startsWith("23")) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Runs {@code work} in one transaction that first marks {@code taskId} processed; commits when it
   * returns, rolls back when it throws.
   *
   * @throws AlreadyProcessedException if the mark already exists
   */
  public <R> R inTransaction(String taskId, String handler, JdbcWork<R> work) throws Exception {
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        if (!tryMark(c, taskId, handler)) {
          c.rollback();
          throw new AlreadyProcessedException(taskId);
        }
        R result = work.run(c);
        c.commit();
        return result;
      } catch (Throwable t) {
        rollbackQuietly(c, t);
        throw t;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    }
  }

  private static void rollbackQuietly(Connection c, Throwable cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }
}
