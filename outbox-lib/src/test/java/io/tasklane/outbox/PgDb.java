package io.tasklane.outbox;

import io.tasklane.testkit.LocalPostgres;
import io.tasklane.testkit.LocalStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A private database with the outbox table on the stack's PostgreSQL, and row readers. */
record PgDb(LocalPostgres pg, String url) {

  static PgDb create(LocalStack stack, String prefix) {
    LocalPostgres pg = stack.postgres();
    String name = prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    var db = new PgDb(pg, pg.createDatabase(name));
    try (Connection c = db.connect()) {
      OutboxSchema.create(c);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return db;
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(url, pg.username(), pg.password());
  }

  /** A connection with auto-commit off: a transaction the test commits or rolls back. */
  Connection begin() throws SQLException {
    Connection c = connect();
    c.setAutoCommit(false);
    return c;
  }

  List<Map<String, Object>> rows() {
    return query("SELECT * FROM tasklane_outbox ORDER BY id");
  }

  long count() {
    return ((Number) query("SELECT COUNT(*) AS n FROM tasklane_outbox").get(0).get("n"))
        .longValue();
  }

  void truncate() {
    try (Connection c = connect()) {
      c.createStatement().execute("TRUNCATE TABLE tasklane_outbox");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  List<Map<String, Object>> query(String sql) {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      ResultSetMetaData md = rs.getMetaData();
      List<Map<String, Object>> out = new ArrayList<>();
      while (rs.next()) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.put(md.getColumnLabel(i), rs.getObject(i));
        }
        out.add(row);
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
