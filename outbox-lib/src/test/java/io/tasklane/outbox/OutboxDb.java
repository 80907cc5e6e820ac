package io.tasklane.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A test database holding the outbox table: row readers over {@link #connect()}. */
interface OutboxDb {

  /** A new connection to the database (auto-commit on). */
  Connection connect() throws SQLException;

  /** A connection with auto-commit off: a transaction the test commits or rolls back. */
  default Connection begin() throws SQLException {
    Connection c = connect();
    c.setAutoCommit(false);
    return c;
  }

  default List<Map<String, Object>> rows() {
    return query("SELECT * FROM tasklane_outbox ORDER BY id");
  }

  default long count() {
    return ((Number) query("SELECT COUNT(*) AS n FROM tasklane_outbox").get(0).get("n"))
        .longValue();
  }

  default void truncate() {
    try (Connection c = connect()) {
      c.createStatement().execute("TRUNCATE TABLE tasklane_outbox");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  default List<Map<String, Object>> query(String sql) {
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
