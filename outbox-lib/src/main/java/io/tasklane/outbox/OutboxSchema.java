package io.tasklane.outbox;

import io.tasklane.core.outbox.OutboxColumn;
import io.tasklane.core.outbox.OutboxDdl;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The table {@code tasklane_outbox}: its name, the shipped DDL resources (each matching {@link
 * OutboxDdl}), and a helper that creates it; and beside it the table {@link #UNIQUE_TABLE} of
 * unique windows ({@link TaskRequest#unique}). Production schemas should come from a migration
 * tool: the Flyway migrations {@link #FLYWAY_MIGRATION}, {@link #FLYWAY_MIGRATION_V2} (schema
 * version 2 adds the {@code options} column) and {@link #FLYWAY_MIGRATION_V3} (the unique table),
 * or {@link #LIQUIBASE_CHANGELOG}; {@link #create} is for tests, demos and tools. Stateless; any
 * thread.
 */
public final class OutboxSchema {
  /** The table name: a contract with the relay ({@link OutboxDdl#TABLE}). */
  public static final String TABLE = OutboxDdl.TABLE;

  /** Plain DDL (classpath resource), {@code CREATE TABLE IF NOT EXISTS}. */
  public static final String DDL_RESOURCE = "io/tasklane/outbox/tasklane_outbox.sql";

  /**
   * The same DDL as a Flyway migration, in Tasklane's own location {@link #FLYWAY_LOCATION}: not
   * under Flyway's default {@code classpath:db/migration}, so an application's own {@code V1} never
   * meets it by accident. Add the location to the application's Flyway (or run it with a history
   * table of its own) to apply it.
   */
  public static final String FLYWAY_MIGRATION = "db/tasklane/mariadb/V1__tasklane_outbox.sql";

  /**
   * The Flyway migration to schema version 2 (the {@code options} column), beside {@link
   * #FLYWAY_MIGRATION}. A released migration is never edited: a new column comes as a new version.
   */
  public static final String FLYWAY_MIGRATION_V2 =
      "db/tasklane/mariadb/V2__tasklane_outbox_options.sql";

  /**
   * The Flyway migration to version 3, the table {@link #UNIQUE_TABLE} (the outbox table is
   * unchanged), beside {@link #FLYWAY_MIGRATION_V2}.
   */
  public static final String FLYWAY_MIGRATION_V3 = "db/tasklane/mariadb/V3__tasklane_unique.sql";

  /**
   * The table of unique windows: one row per {@code (handler, key)} of a task enqueued with {@link
   * TaskRequest#unique}, written in the enqueuing transaction; the relay deletes rows whose window
   * ended.
   */
  public static final String UNIQUE_TABLE = "tasklane_unique";

  /** Plain DDL of {@link #UNIQUE_TABLE} (MariaDB, MySQL), {@code CREATE TABLE IF NOT EXISTS}. */
  public static final String UNIQUE_DDL_RESOURCE = "io/tasklane/outbox/tasklane_unique.sql";

  /** Plain DDL of {@link #UNIQUE_TABLE} for PostgreSQL: the table, then its index. */
  public static final String POSTGRESQL_UNIQUE_DDL_RESOURCE =
      "io/tasklane/outbox/tasklane_unique.postgresql.sql";

  /** The Flyway location of {@link #FLYWAY_MIGRATION} and its successors (MariaDB, MySQL). */
  public static final String FLYWAY_LOCATION = "classpath:db/tasklane/mariadb";

  /**
   * A Liquibase changelog to include from the application's master changelog; the same changelog
   * serves MariaDB, MySQL and PostgreSQL.
   */
  public static final String LIQUIBASE_CHANGELOG = "db/changelog/tasklane-outbox.xml";

  /** Plain DDL for PostgreSQL (classpath resource), {@code CREATE TABLE IF NOT EXISTS}. */
  public static final String POSTGRESQL_DDL_RESOURCE =
      "io/tasklane/outbox/tasklane_outbox.postgresql.sql";

  /**
   * The PostgreSQL DDL as a Flyway migration, in its own location {@link
   * #POSTGRESQL_FLYWAY_LOCATION}, beside (not below) {@link #FLYWAY_LOCATION}: Flyway scans a
   * location recursively, and both hold the same versions.
   */
  public static final String POSTGRESQL_FLYWAY_MIGRATION =
      "db/tasklane/postgresql/V1__tasklane_outbox.sql";

  /** {@link #FLYWAY_MIGRATION_V2} for PostgreSQL, beside {@link #POSTGRESQL_FLYWAY_MIGRATION}. */
  public static final String POSTGRESQL_FLYWAY_MIGRATION_V2 =
      "db/tasklane/postgresql/V2__tasklane_outbox_options.sql";

  /** {@link #FLYWAY_MIGRATION_V3} for PostgreSQL, beside {@link #POSTGRESQL_FLYWAY_MIGRATION}. */
  public static final String POSTGRESQL_FLYWAY_MIGRATION_V3 =
      "db/tasklane/postgresql/V3__tasklane_unique.sql";

  /** The Flyway location of the PostgreSQL migrations, instead of {@link #FLYWAY_LOCATION}. */
  public static final String POSTGRESQL_FLYWAY_LOCATION = "classpath:db/tasklane/postgresql";

  /** The database families the table is shipped for; each has its own DDL resource. */
  public enum Dialect {
    /** MariaDB 10.6+ and MySQL 8: {@link #DDL_RESOURCE}, {@link #UNIQUE_DDL_RESOURCE}. */
    MARIADB(DDL_RESOURCE, UNIQUE_DDL_RESOURCE),
    /**
     * PostgreSQL 12+: {@link #POSTGRESQL_DDL_RESOURCE}, {@link #POSTGRESQL_UNIQUE_DDL_RESOURCE}.
     */
    POSTGRESQL(POSTGRESQL_DDL_RESOURCE, POSTGRESQL_UNIQUE_DDL_RESOURCE);

    private final String ddlResource;
    private final String uniqueDdlResource;

    Dialect(String ddlResource, String uniqueDdlResource) {
      this.ddlResource = ddlResource;
      this.uniqueDdlResource = uniqueDdlResource;
    }

    /** The classpath resource with this dialect's {@code CREATE TABLE IF NOT EXISTS}. */
    public String ddlResource() {
      return ddlResource;
    }

    /** The classpath resource with this dialect's statements creating {@link #UNIQUE_TABLE}. */
    public String uniqueDdlResource() {
      return uniqueDdlResource;
    }

    /**
     * The dialect of the database behind {@code connection}, from its metadata's product name.
     *
     * @throws OutboxException naming the product when it is none of MariaDB, MySQL, PostgreSQL
     */
    public static Dialect of(Connection connection) {
      String product;
      try {
        product = connection.getMetaData().getDatabaseProductName();
      } catch (SQLException e) {
        throw new OutboxException(
            "could not read the database product name of the connection: " + e.getMessage(), e);
      }
      return forProduct(product);
    }

    /**
     * The dialect for a JDBC {@code DatabaseMetaData.getDatabaseProductName()}.
     *
     * @throws OutboxException naming the product when it is none of MariaDB, MySQL, PostgreSQL
     */
    public static Dialect forProduct(String product) {
      String name = product == null ? "" : product.toLowerCase(java.util.Locale.ROOT);
      if (name.contains("mariadb") || name.contains("mysql")) {
        return MARIADB;
      }
      if (name.contains("postgresql")) {
        return POSTGRESQL;
      }
      throw new OutboxException(
          "the outbox table is shipped for MariaDB, MySQL and PostgreSQL, not for database '"
              + product
              + "'");
    }
  }

  private OutboxSchema() {}

  /**
   * The MariaDB/MySQL {@code CREATE TABLE IF NOT EXISTS} statement, without comments or trailing
   * semicolon.
   */
  public static String ddl() {
    return ddl(Dialect.MARIADB);
  }

  /** The {@code CREATE TABLE IF NOT EXISTS} statement of {@code dialect}, as {@link #ddl()}. */
  public static String ddl(Dialect dialect) {
    String text = resource(dialect.ddlResource());
    String sql =
        text.lines()
            .filter(line -> !line.stripLeading().startsWith("--"))
            .collect(Collectors.joining("\n"))
            .strip();
    return sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
  }

  /**
   * The statements creating {@link #UNIQUE_TABLE} in {@code dialect} ({@code IF NOT EXISTS}),
   * without comments or trailing semicolons.
   */
  public static List<String> uniqueDdl(Dialect dialect) {
    String text =
        resource(dialect.uniqueDdlResource())
            .lines()
            .filter(line -> !line.stripLeading().startsWith("--"))
            .collect(Collectors.joining("\n"));
    return Arrays.stream(text.split(";")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }

  /**
   * Creates the table on {@code connection} unless it exists, in the dialect of the connection's
   * database ({@link Dialect#of}), and {@link #UNIQUE_TABLE} unless it exists; a table of an
   * earlier schema version gets the columns it lacks ({@link OutboxDdl#mariadbMigration}). DDL
   * commits implicitly in MySQL and MariaDB: do not call this inside a business transaction. On
   * PostgreSQL the DDL is transactional: with auto-commit off it takes effect when the caller
   * commits.
   *
   * @throws OutboxException if the database is not supported or the DDL fails
   */
  public static void create(Connection connection) {
    Dialect dialect = Dialect.of(connection);
    try (Statement st = connection.createStatement()) {
      st.execute(ddl(dialect));
      for (int version = 2; version <= OutboxColumn.SCHEMA_VERSION; version++) {
        if (!hasColumns(connection, OutboxColumn.addedBy(version))) {
          st.execute(
              dialect == Dialect.POSTGRESQL
                  ? OutboxDdl.postgresqlMigration(version)
                  : OutboxDdl.mariadbMigration(version));
        }
      }
      for (String statement : uniqueDdl(dialect)) {
        st.execute(statement);
      }
    } catch (SQLException e) {
      throw new OutboxException("could not create " + TABLE + ": " + e.getMessage(), e);
    }
  }

  /** Whether the table on {@code connection} (its current catalog and schema) has every column. */
  private static boolean hasColumns(Connection connection, List<OutboxColumn> columns)
      throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    for (OutboxColumn c : columns) {
      try (ResultSet rs =
          meta.getColumns(connection.getCatalog(), connection.getSchema(), TABLE, c.columnName())) {
        if (!rs.next()) {
          return false;
        }
      }
    }
    return true;
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
