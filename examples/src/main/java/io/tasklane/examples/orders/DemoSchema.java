package io.tasklane.examples.orders;

import io.tasklane.outbox.OutboxSchema;
import io.tasklane.worker.JdbcIdempotencyStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The demo's tables: orders and an effects log. Effects have their own auto-increment key (not the
 * task id) so that a duplicate effect would show up as two rows instead of being hidden by a unique
 * key: the demo's "exactly once" check counts them.
 */
public final class DemoSchema {
  private DemoSchema() {}

  /** The MariaDB DDL of the demo tables (also mounted by the compose stack). */
  public static String demoTables() {
    return demoTables(OutboxSchema.Dialect.MARIADB);
  }

  /**
   * The DDL of the demo tables for {@code dialect} ({@code demo_tables.sql} or {@code
   * demo_tables.postgresql.sql}; compose mounts them too).
   */
  public static String demoTables(OutboxSchema.Dialect dialect) {
    String file =
        dialect == OutboxSchema.Dialect.POSTGRESQL
            ? "/io/tasklane/examples/demo_tables.postgresql.sql"
            : "/io/tasklane/examples/demo_tables.sql";
    try (var in = DemoSchema.class.getResourceAsStream(file)) {
      String sql = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      return sql.replaceAll("(?m)^--.*$", "");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Creates the outbox, the processed-task table and the demo tables if missing, in the DDL of the
   * connection's database (MariaDB/MySQL or PostgreSQL).
   */
  public static void create(Connection c) throws SQLException {
    OutboxSchema.create(c);
    try (Statement s = c.createStatement()) {
      s.execute(JdbcIdempotencyStore.ddl());
      for (String ddl : demoTables(OutboxSchema.Dialect.of(c)).split(";")) {
        if (!ddl.isBlank()) {
          s.execute(ddl);
        }
      }
    }
    if (!c.getAutoCommit()) {
      c.commit();
    }
  }
}
