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
 * A run's database, queried with plain JDBC, one short connection per call. Thread-safe (it holds
 * no connection).
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

  /** Creates database {@code name} on {@code stack} (if missing) and {@code schema} in it. */
  public static Database create(LocalStack stack, String name, Schema schema) {
    String url = stack.createDatabase(name);
    Database db = new Database(url, stack.username(), stack.password());
    try (Connection c = db.connect()) {
      schema.create(c);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the schema of " + name + ": " + e, e);
    }
    return db;
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
