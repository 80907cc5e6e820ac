package io.tasklane.outbox;

import io.tasklane.testkit.LocalStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.UUID;

/** A private database with the outbox table on the shared stack, and row readers. */
record TestDb(LocalStack stack, String url) implements OutboxDb {

  static TestDb create(LocalStack stack, String prefix) {
    String name = prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    var db = new TestDb(stack, stack.createDatabase(name));
    try (Connection c = db.connect()) {
      OutboxSchema.create(c);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return db;
  }

  @Override
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url, stack.username(), stack.password());
  }
}
