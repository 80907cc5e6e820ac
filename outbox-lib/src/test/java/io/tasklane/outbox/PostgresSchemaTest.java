package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.tasklane.core.outbox.OutboxColumn;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import liquibase.Contexts;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.Test;

/** The PostgreSQL forms of the table follow the MariaDB row contract, column by column. */
@TasklaneStack
class PostgresSchemaTest {
  /** Both servers answer this information_schema query; data types differ only in spelling. */
  static final String COLUMNS =
      "SELECT column_name, data_type, character_maximum_length, is_nullable"
          + " FROM information_schema.columns WHERE table_schema = %s"
          + " AND table_name = 'tasklane_outbox' ORDER BY ordinal_position";

  /** MariaDB's data_type -> PostgreSQL's, for the types of the contract. */
  static final Map<String, String> TYPES =
      Map.of(
          "bigint", "bigint",
          "int", "integer",
          "char", "character",
          "varchar", "character varying",
          "text", "text",
          "longtext", "text");

  static final String ID = "0190f3a2-7b1c-7e4a-9d2b-000000000001";

  final LocalStack stack;

  PostgresSchemaTest(LocalStack stack) {
    this.stack = stack;
  }

  @Test
  void postgresqlTableHasTheMariaDbColumnsWithMappedTypes() {
    TestDb maria = TestDb.create(stack, "outbox_contract");
    PgDb pg = PgDb.create(stack, "outbox_contract");
    List<Map<String, Object>> expected =
        maria.query(COLUMNS.formatted("DATABASE()")).stream()
            .map(
                r -> {
                  Map<String, Object> m = normalized(r);
                  String type = (String) m.get("data_type");
                  assertThat(TYPES).as("mapping of MariaDB type " + type).containsKey(type);
                  m.put("data_type", TYPES.get(type));
                  if (type.endsWith("text")) {
                    m.put("character_maximum_length", null); // TEXT has no length in PostgreSQL
                  }
                  return m;
                })
            .toList();
    List<Map<String, Object>> actual =
        pg.query(COLUMNS.formatted("current_schema()")).stream()
            .map(PostgresSchemaTest::normalized)
            .toList();
    assertThat(actual).hasSize(OutboxColumn.values().length).isEqualTo(expected);
    assertThat(
            pg.query(
                "SELECT is_identity FROM information_schema.columns"
                    + " WHERE table_name = 'tasklane_outbox' AND column_name = 'id'"))
        .containsExactly(Map.of("is_identity", "YES"));
  }

  @Test
  void createAddsTheColumnsATableOfTheFirstVersionLacks() throws Exception {
    PgDb pg = bare("outbox_pg_upgrade");
    try (Connection c = pg.connect();
        Statement st = c.createStatement()) {
      st.execute(OutboxSchema.resource(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION));
      st.execute(
          "INSERT INTO tasklane_outbox (task_id, routing_key, kind, due_at, max_attempts,"
              + " timeout_ms, created_at) VALUES ('"
              + ID
              + "', 'r', 'TASK', 0, 1, 1000, 0)");
      OutboxSchema.create(c);
      OutboxSchema.create(c);
    }
    assertThat(pg.query("SELECT task_id, options FROM tasklane_outbox"))
        .extracting(r -> r.get("task_id"), r -> r.get("options"))
        .containsExactly(tuple(ID, null));
    assertThat(pg.query(COLUMNS.formatted("current_schema()")))
        .hasSize(OutboxColumn.values().length);
  }

  /** A new database without the outbox table. */
  private PgDb bare(String prefix) {
    String name = prefix + "_" + Long.toHexString(System.nanoTime());
    return new PgDb(stack.postgres(), stack.postgres().createDatabase(name));
  }

  @Test
  void primaryKeyIsTheOnlyIndexAndCreateIsIdempotent() throws Exception {
    PgDb pg = PgDb.create(stack, "outbox_pg_idx");
    try (Connection c = pg.connect()) {
      OutboxSchema.create(c);
    }
    assertThat(pg.query("SELECT indexdef FROM pg_indexes WHERE tablename = 'tasklane_outbox'"))
        .singleElement()
        .satisfies(r -> assertThat((String) r.get("indexdef")).contains("UNIQUE", "(id)"));
    assertThat(
            pg.query(
                "SELECT constraint_type FROM information_schema.table_constraints"
                    + " WHERE table_name = 'tasklane_outbox' AND constraint_type <> 'CHECK'"))
        .containsExactly(Map.of("constraint_type", "PRIMARY KEY"));
  }

  @Test
  void dialectIsPickedFromTheConnectionAndUnknownDatabasesAreRefusedByName() throws Exception {
    PgDb pg = PgDb.create(stack, "outbox_pg_dialect");
    TestDb maria = TestDb.create(stack, "outbox_dialect");
    try (Connection p = pg.connect();
        Connection m = maria.connect()) {
      assertThat(OutboxSchema.Dialect.of(p)).isEqualTo(OutboxSchema.Dialect.POSTGRESQL);
      assertThat(OutboxSchema.Dialect.of(m)).isEqualTo(OutboxSchema.Dialect.MARIADB);
    }
    assertThat(OutboxSchema.Dialect.forProduct("MySQL")).isEqualTo(OutboxSchema.Dialect.MARIADB);
    assertThatThrownBy(() -> OutboxSchema.Dialect.forProduct("Oracle"))
        .isInstanceOf(OutboxException.class)
        .hasMessageContaining("'Oracle'")
        .hasMessageContaining("MariaDB, MySQL and PostgreSQL");
  }

  @Test
  void flywayMigrationsForPostgresqlMakeThePlainDdlsTableOutsideTheDefaultLocation()
      throws Exception {
    PgDb plain = bare("outbox_pg_plain");
    PgDb flyway = bare("outbox_pg_flyway");
    try (Connection c = flyway.connect();
        Statement st = c.createStatement()) {
      st.execute(OutboxSchema.resource(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION));
      st.execute(OutboxSchema.resource(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION_V2));
    }
    try (Connection c = plain.connect();
        Statement st = c.createStatement()) {
      st.execute(OutboxSchema.ddl(OutboxSchema.Dialect.POSTGRESQL));
    }
    String columns = COLUMNS.formatted("current_schema()");
    assertThat(flyway.query(columns)).hasSize(OutboxColumn.values().length);
    assertThat(flyway.query(columns)).isEqualTo(plain.query(columns));
    // Flyway scans db/migration recursively: a second V1 below it would clash with MariaDB's.
    assertThat(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION).doesNotStartWith("db/migration/");
    assertThat(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION_V2).doesNotStartWith("db/migration/");
    assertThat(OutboxSchema.POSTGRESQL_FLYWAY_LOCATION)
        .isEqualTo(
            "classpath:"
                + OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION.substring(
                    0, OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION.lastIndexOf('/')));
    assertThat(OutboxSchema.ddl(OutboxSchema.Dialect.POSTGRESQL))
        .startsWith("CREATE TABLE IF NOT EXISTS tasklane_outbox")
        .doesNotContain("--", "AUTO_INCREMENT", "ENGINE", "LONGTEXT")
        .doesNotEndWith(";");
  }

  @Test
  void liquibaseChangelogCreatesTheSameTableOnPostgresql() throws Exception {
    PgDb plain = PgDb.create(stack, "outbox_pg_plain");
    PgDb viaLiquibase = new PgDb(plain.pg(), plain.pg().createDatabase("outbox_pg_lb"));
    System.setProperty("liquibase.analytics.enabled", "false");
    try (Connection c = viaLiquibase.connect()) {
      Database database =
          DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c));
      try (var liquibase =
          new Liquibase(
              OutboxSchema.LIQUIBASE_CHANGELOG, new ClassLoaderResourceAccessor(), database)) {
        liquibase.update(new Contexts());
        liquibase.update(new Contexts()); // already applied: no-op
      }
    }
    String columns =
        "SELECT column_name, data_type, character_maximum_length, is_nullable, is_identity"
            + " FROM information_schema.columns WHERE table_schema = current_schema()"
            + " AND table_name = 'tasklane_outbox' ORDER BY ordinal_position";
    assertThat(viaLiquibase.query(columns))
        .hasSize(OutboxColumn.values().length)
        .isEqualTo(plain.query(columns));
  }

  @Test
  void theUniqueTableIsTheSameFromThePlainDdlFlywayAndLiquibase() throws Exception {
    PgDb plain = PgDb.create(stack, "outbox_pg_uplain");
    PgDb flyway = bare("outbox_pg_uflyway");
    try (Connection c = flyway.connect();
        Statement st = c.createStatement()) {
      st.execute(OutboxSchema.resource(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION));
      st.execute(OutboxSchema.resource(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION_V2));
      st.execute(OutboxSchema.resource(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION_V3));
    }
    PgDb viaLiquibase = bare("outbox_pg_ulb");
    System.setProperty("liquibase.analytics.enabled", "false");
    try (Connection c = viaLiquibase.connect()) {
      Database database =
          DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c));
      try (var liquibase =
          new Liquibase(
              OutboxSchema.LIQUIBASE_CHANGELOG, new ClassLoaderResourceAccessor(), database)) {
        liquibase.update(new Contexts());
      }
    }
    String columns =
        "SELECT column_name, data_type, character_maximum_length, is_nullable"
            + " FROM information_schema.columns WHERE table_schema = current_schema()"
            + " AND table_name = 'tasklane_unique' ORDER BY ordinal_position";
    String indexes =
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
            + " AND tablename = 'tasklane_unique' AND indexname <> 'tasklane_unique_pkey'"
            + " ORDER BY indexname";
    assertThat(plain.query(columns)).hasSize(5);
    assertThat(flyway.query(columns)).isEqualTo(plain.query(columns));
    assertThat(viaLiquibase.query(columns)).isEqualTo(plain.query(columns));
    assertThat(plain.query(indexes))
        .containsExactly(java.util.Map.of("indexname", "tasklane_unique_expires_at"));
    assertThat(flyway.query(indexes)).isEqualTo(plain.query(indexes));
    assertThat(viaLiquibase.query(indexes)).isEqualTo(plain.query(indexes));
  }

  @Test
  void entityGeneratesTheShippedTableOnPostgresqlAndMariaDb() {
    PgDb plainPg = PgDb.create(stack, "outbox_pg_ddl");
    PgDb entityPg = new PgDb(plainPg.pg(), plainPg.pg().createDatabase("outbox_pg_entity"));
    createWithHibernate(entityPg.url(), entityPg.pg().username(), entityPg.pg().password());
    String pgColumns =
        COLUMNS.formatted("current_schema()").replace("ordinal_position", "column_name");
    assertThat(entityPg.query(pgColumns))
        .hasSize(OutboxColumn.values().length)
        .isEqualTo(plainPg.query(pgColumns));

    TestDb plainMaria = TestDb.create(stack, "outbox_ddl");
    TestDb entityMaria =
        new TestDb(stack, stack.createDatabase("outbox_entity_" + System.nanoTime() % 100_000));
    createWithHibernate(entityMaria.url(), stack.username(), stack.password());
    String mariaColumns =
        "SELECT column_name, column_type, is_nullable FROM information_schema.columns"
            + " WHERE table_schema = DATABASE() AND table_name = 'tasklane_outbox'"
            + " ORDER BY column_name";
    assertThat(entityMaria.query(mariaColumns))
        .hasSize(OutboxColumn.values().length)
        .isEqualTo(plainMaria.query(mariaColumns));
  }

  private static void createWithHibernate(String url, String user, String password) {
    try (var sessions =
        new org.hibernate.cfg.Configuration()
            .addAnnotatedClass(OutboxEntry.class)
            .setProperty("hibernate.connection.url", url)
            .setProperty("hibernate.connection.username", user)
            .setProperty("hibernate.connection.password", password)
            .setProperty("hibernate.hbm2ddl.auto", "create")
            .buildSessionFactory()) {
      assertThat(sessions.isOpen()).isTrue();
    }
  }

  private static Map<String, Object> normalized(Map<String, Object> row) {
    Map<String, Object> m = new LinkedHashMap<>();
    row.forEach(
        (k, v) ->
            m.put(
                k.toLowerCase(),
                v instanceof Number n ? Long.valueOf(n.longValue()) : v == null ? null : v));
    m.put("data_type", String.valueOf(m.get("data_type")).toLowerCase());
    return m;
  }
}
