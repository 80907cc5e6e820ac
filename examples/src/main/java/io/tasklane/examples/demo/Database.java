package io.tasklane.examples.demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Read-only queries of the demo database (plain JDBC, one short connection per call). */
public record Database(String url, String user, String password) {

  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url, user, password);
  }

  public long count(String sql) {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getLong(1) : 0;
    } catch (SQLException e) {
      throw new IllegalStateException("query failed: " + sql + ": " + e.getMessage(), e);
    }
  }

  public List<Long> longs(String sql) {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      List<Long> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getLong(1));
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException("query failed: " + sql + ": " + e.getMessage(), e);
    }
  }
}
