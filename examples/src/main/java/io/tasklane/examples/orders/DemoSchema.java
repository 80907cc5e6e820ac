package io.tasklane.examples.orders;

import io.tasklane.outbox.OutboxSchema;
import io.tasklane.worker.JdbcIdempotencyStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The demo's tables: orders and an effects log. Effects have their own auto-increment key (not
 * the task id) so that a duplicate effect would show up as two rows instead of being hidden by a
 * unique key: the demo's "exactly once" check counts them.
 */
public final class DemoSchema {
  private DemoSchema() {}

  /** Creates the outbox, the processed-task table and the demo tables if missing. */
  public static void create(Connection c) throws SQLException {
    OutboxSchema.create(c);
    try (Statement s = c.createStatement()) {
      s.execute(JdbcIdempotencyStore.ddl());
      s.execute(
          "CREATE TABLE IF NOT EXISTS demo_orders ("
              + " id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
              + " state VARCHAR(16) NOT NULL,"
              + " created_at BIGINT NOT NULL,"
              + " cancel_due_at BIGINT NOT NULL) ENGINE=InnoDB");
      s.execute(
          "CREATE TABLE IF NOT EXISTS demo_effects ("
              + " id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
              + " task_id CHAR(36) NOT NULL,"
              + " kind VARCHAR(40) NOT NULL,"
              + " ref BIGINT NOT NULL,"
              + " attempt INT NOT NULL,"
              + " started_at BIGINT NOT NULL,"
              + " KEY demo_effects_kind (kind, ref)) ENGINE=InnoDB");
    }
    if (!c.getAutoCommit()) {
      c.commit();
    }
  }
}
