package io.tasklane.worker;

import io.tasklane.worker.spi.WorkerTransactions;
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
 * its own connection from the DataSource (or, for {@link #inTransaction}, from the {@link
 * WorkerTransactions} it was built with).
 */
public final class JdbcIdempotencyStore implements IdempotencyStore {
  /** Classpath resource holding the table's DDL. */
  public static final String DDL_RESOURCE = "/io/tasklane/worker/tasklane_processed.sql";

  private static final String INSERT =
      "INSERT INTO tasklane_processed (task_id, handler, processed_at) VALUES (?, ?, ?)";

  private final DataSource dataSource;
  private final Clock clock;
  private final WorkerTransactions transactions;
  private volatile boolean tableDeferred;

  /** A store whose transactions are plain JDBC transactions on {@code dataSource}. */
  public JdbcIdempotencyStore(DataSource dataSource, Clock clock) {
    this(dataSource, clock, WorkerTransactions.jdbc(dataSource));
  }

  /**
   * A store whose {@link #inTransaction} runs in {@code transactions} (e.g. the framework's), and
   * whose lookups and table creation use {@code dataSource} in auto-commit.
   */
  public JdbcIdempotencyStore(DataSource dataSource, Clock clock, WorkerTransactions transactions) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.transactions = Objects.requireNonNull(transactions, "transactions");
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
      throw new WorkerException("cannot create table tasklane_processed: " + describe(e), e);
    }
  }

  /**
   * Creates the table now, or, if that fails because the database is unreachable or refuses the
   * login (database down, credentials expired, the pool's checkout timeout), before the next {@link
   * #isProcessed}: the worker then starts anyway and each attempt fails until the database answers.
   * An access-rule or syntax error (SQLState class 42, e.g. no CREATE privilege) is a configuration
   * error and is thrown. Start-up thread.
   *
   * @return the failure that deferred the creation, or null if the table exists now
   * @throws WorkerException when the creation failed with a configuration error
   */
  public WorkerException createTableOrDefer() {
    try {
      createTable();
      return null;
    } catch (WorkerException e) {
      if (isConfigurationError(e.getCause())) {
        throw e;
      }
      tableDeferred = true;
      return e;
    }
  }

  /**
   * SQLState class 42 (syntax error or access rule violation, e.g. CREATE denied) anywhere in the
   * cause chain: retrying will not help. Connection failures (class 08), refused or expired logins
   * (28, MariaDB 1820) and pool checkout timeouts (no or another state) are not.
   */
  static boolean isConfigurationError(Throwable t) {
    for (int depth = 0; t != null && depth < 10; t = t.getCause(), depth++) {
      if (t instanceof SQLException sql
          && sql.getSQLState() != null
          && sql.getSQLState().startsWith("42")) {
        return true;
      }
    }
    return false;
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
    if (tableDeferred) {
      createTable(); // throws while the database still fails: the attempt fails before it runs
      tableDeferred = false;
    }
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT 1 FROM tasklane_processed WHERE task_id = ?")) {
      ps.setString(1, taskId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    } catch (SQLException e) {
      throw new WorkerException("cannot read tasklane_processed: " + describe(e), e);
    }
  }

  @Override
  public void markProcessed(String taskId, String handler) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      tryMark(c, taskId, handler);
    } catch (SQLException e) {
      throw new WorkerException("cannot write tasklane_processed: " + describe(e), e);
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
    return transactions.inTransaction(
        c -> {
          if (!tryMark(c, taskId, handler)) {
            throw new AlreadyProcessedException(taskId);
          }
          return work.run(c);
        });
  }

  /**
   * The message of {@code e} and of its root cause: a pool's "connection is not available" hides
   * the database's own answer (e.g. MariaDB's "You must SET PASSWORD before executing this
   * statement") in its cause.
   */
  private static String describe(SQLException e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = String.valueOf(e.getMessage());
    return root == e || message.contains(String.valueOf(root.getMessage()))
        ? message
        : message + " (caused by " + root.getMessage() + ")";
  }
}
