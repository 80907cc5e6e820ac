package io.tasklane.outbox;

import io.tasklane.testkit.LocalPostgres;
import io.tasklane.testkit.LocalStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.UUID;

/** A private database with the outbox table on the stack's PostgreSQL, and row readers. */
record PgDb(LocalPostgres pg, String url) implements OutboxDb {

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

  @Override
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url, pg.username(), pg.password());
  }
}
