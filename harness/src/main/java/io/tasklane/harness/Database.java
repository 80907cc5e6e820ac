package io.tasklane.harness;

import io.tasklane.testkit.LocalStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's database (MariaDB or PostgreSQL, see {@link DatabaseKind}), queried with plain JDBC, one
 * short connection per call. Thread-safe (it holds no connection).
 *
 * @param url JDBC URL
 * @param user database user
 * @param password database password
 */
public record Database(String url, String user, String password) {

  /** Creates the tables of a run on a fresh connection. */
  @FunctionalInterface
  public interface Schema {
    void create(Connection c) throws SQLException;
  }

  /** Reads one row of a result. */
  @FunctionalInterface
  public interface Row {
    void accept(ResultSet rs) throws SQLException;
  }

  /** Creates database {@code name} on {@code stack}'s MariaDB (if missing) and {@code schema}. */
  public static Database create(LocalStack stack, String name, Schema schema) {
    return create(stack, DatabaseKind.MARIADB, name, schema);
  }

  /**
   * Creates database {@code name} of {@code kind} on {@code stack} and {@code schema} in it: on
   * MariaDB if missing, on PostgreSQL (the stack's private server, started on first use) afresh.
   */
  public static Database create(LocalStack stack, DatabaseKind kind, String name, Schema schema) {
    Database db = kind.open(stack, name);
    try (Connection c = db.connect()) {
      schema.create(c);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the schema of " + name + ": " + e, e);
    }
    return db;
  }

  /** MariaDB or PostgreSQL, from {@link #url}. */
  public DatabaseKind kind() {
    return DatabaseKind.ofUrl(url);
  }

  /**
   * PostgreSQL: drops this database's replication slots once no relay uses them (waits up to {@code
   * timeout} for the last relay's WAL sender to end); a slot left behind holds WAL and blocks
   * dropping the database. MariaDB: nothing to do. Call after the relays stopped.
   *
   * @return how many slots were dropped
   */
  public int dropReplicationSlots(java.time.Duration timeout) {
    if (kind() != DatabaseKind.POSTGRESQL) {
      return 0;
    }
    String active =
        "SELECT COUNT(*) FROM pg_replication_slots WHERE database = current_database() AND active";
    long deadline = System.nanoTime() + timeout.toNanos();
    while (count(active) > 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(100); // a stopped relay's WAL sender ends within moments
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    List<String> slots = new ArrayList<>();
    forEach(
        "SELECT slot_name FROM pg_replication_slots"
            + " WHERE database = current_database() AND NOT active",
        rs -> slots.add(rs.getString(1)));
    // slot names are [a-z0-9_] (the relay refuses others)
    slots.forEach(slot -> execute("SELECT pg_drop_replication_slot('" + slot + "')"));
    return slots.size();
  }

  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url, user, password);
  }

  /** The first column of the first row as a number, 0 without rows. */
  public long count(String sql) {
    long[] n = {0};
    query(sql, rs -> n[0] = rs.getLong(1), 1);
    return n[0];
  }

  /** The first column of every row. */
  public List<Long> longs(String sql) {
    List<Long> out = new ArrayList<>();
    forEach(sql, rs -> out.add(rs.getLong(1)));
    return out;
  }

  /** Calls {@code row} for every row of {@code sql}. */
  public void forEach(String sql, Row row) {
    query(sql, row, Long.MAX_VALUE);
  }

  /** Runs one statement that returns no rows. */
  public void execute(String sql) {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("statement failed: " + sql + ": " + e.getMessage(), e);
    }
  }

  private void query(String sql, Row row, long maxRows) {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      for (long n = 0; n < maxRows && rs.next(); n++) {
        row.accept(rs);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("query failed: " + sql + ": " + e.getMessage(), e);
    }
  }
}
