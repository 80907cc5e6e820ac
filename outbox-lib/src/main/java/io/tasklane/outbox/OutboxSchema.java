package io.tasklane.outbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The table {@code tasklane_outbox}: its name, the shipped DDL resources, and a helper that creates
 * it. Production schemas should come from a migration tool: {@link #FLYWAY_MIGRATION} or {@link
 * #LIQUIBASE_CHANGELOG}; {@link #create} is for tests, demos and tools. Stateless; any thread.
 */
public final class OutboxSchema {
  /** The table name: a contract with the relay. */
  public static final String TABLE = "tasklane_outbox";

  /** Plain DDL (classpath resource), {@code CREATE TABLE IF NOT EXISTS}. */
  public static final String DDL_RESOURCE = "io/tasklane/outbox/tasklane_outbox.sql";

  /** The same DDL as a Flyway migration (default location {@code classpath:db/migration}). */
  public static final String FLYWAY_MIGRATION = "db/migration/V1__tasklane_outbox.sql";

  /** A Liquibase changelog to include from the application's master changelog. */
  public static final String LIQUIBASE_CHANGELOG = "db/changelog/tasklane-outbox.xml";

  private OutboxSchema() {}

  /** The {@code CREATE TABLE IF NOT EXISTS} statement, without comments or trailing semicolon. */
  public static String ddl() {
    String text = resource(DDL_RESOURCE);
    String sql =
        text.lines()
            .filter(line -> !line.stripLeading().startsWith("--"))
            .collect(Collectors.joining("\n"))
            .strip();
    return sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
  }

  /**
   * Creates the table on {@code connection} unless it exists. DDL commits implicitly in MySQL and
   * MariaDB: do not call this inside a business transaction.
   */
  public static void create(Connection connection) {
    try (Statement st = connection.createStatement()) {
      st.execute(ddl());
    } catch (SQLException e) {
      throw new OutboxException("could not create " + TABLE + ": " + e.getMessage(), e);
    }
  }

  /** Creates the table with a connection of {@code dataSource} unless it exists. */
  public static void create(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      create(connection);
    } catch (SQLException e) {
      throw new OutboxException("could not connect to create " + TABLE + ": " + e.getMessage(), e);
    }
  }

  /** The text of a classpath resource of this library, e.g. {@link #DDL_RESOURCE}. */
  public static String resource(String name) {
    try (InputStream in = OutboxSchema.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new OutboxException("resource " + name + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
