package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.tasklane.core.outbox.OutboxColumn;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import liquibase.Contexts;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.Test;

/** The three shipped forms of the schema create the same table. */
@TasklaneStack
class SchemaResourcesTest {
  static final String COLUMNS =
      "SELECT column_name, column_type, is_nullable, column_key, extra"
          + " FROM information_schema.columns WHERE table_schema = DATABASE()"
          + " AND table_name = 'tasklane_outbox' ORDER BY ordinal_position";

  static final String ID = "0190f3a2-7b1c-7e4a-9d2b-000000000001";

  final LocalStack stack;

  SchemaResourcesTest(LocalStack stack) {
    this.stack = stack;
  }

  @Test
  void flywayMigrationsInOrderMakeThePlainDdlsTable() throws Exception {
    TestDb plain = TestDb.create(stack, "outbox_plain_v");
    TestDb flyway = bare("outbox_flyway");
    try (Connection c = flyway.connect();
        Statement st = c.createStatement()) {
      st.execute(OutboxSchema.resource(OutboxSchema.FLYWAY_MIGRATION));
      st.execute(OutboxSchema.resource(OutboxSchema.FLYWAY_MIGRATION_V2));
    }
    assertThat(flyway.query(COLUMNS)).hasSize(OutboxColumn.values().length);
    assertThat(flyway.query(COLUMNS)).isEqualTo(plain.query(COLUMNS));
    assertThat(OutboxSchema.ddl())
        .startsWith("CREATE TABLE IF NOT EXISTS tasklane_outbox")
        .doesNotContain("--")
        .doesNotEndWith(";");
  }

  @Test
  void createAddsTheColumnsATableOfTheFirstVersionLacks() throws Exception {
    TestDb db = bare("outbox_upgrade");
    try (Connection c = db.connect();
        Statement st = c.createStatement()) {
      st.execute(OutboxSchema.resource(OutboxSchema.FLYWAY_MIGRATION));
      st.execute(
          "INSERT INTO tasklane_outbox (task_id, routing_key, kind, due_at, max_attempts,"
              + " timeout_ms, created_at) VALUES ('"
              + ID
              + "', 'r', 'TASK', 0, 1, 1000, 0)");
      OutboxSchema.create(c);
      OutboxSchema.create(c);
    }
    assertThat(db.query("SELECT task_id, options FROM tasklane_outbox"))
        .extracting(r -> r.get("task_id"), r -> r.get("options"))
        .containsExactly(tuple(ID, null));
    assertThat(db.query(COLUMNS))
        .extracting(r -> r.get("column_name"))
        .containsExactlyElementsOf(
            Arrays.stream(OutboxColumn.values()).map(OutboxColumn::columnName).toList());
  }

  @Test
  void theUniqueTableIsTheSameFromThePlainDdlFlywayAndLiquibase() throws Exception {
    TestDb plain = TestDb.create(stack, "outbox_uplain");
    TestDb flyway = bare("outbox_uflyway");
    try (Connection c = flyway.connect();
        Statement st = c.createStatement()) {
      st.execute(OutboxSchema.resource(OutboxSchema.FLYWAY_MIGRATION));
      st.execute(OutboxSchema.resource(OutboxSchema.FLYWAY_MIGRATION_V2));
      st.execute(OutboxSchema.resource(OutboxSchema.FLYWAY_MIGRATION_V3));
    }
    TestDb viaLiquibase = bare("outbox_ulb");
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
    String columns = COLUMNS.replace("'tasklane_outbox'", "'tasklane_unique'");
    String indexes =
        "SELECT index_name, column_name, non_unique FROM information_schema.statistics"
            + " WHERE table_schema = DATABASE() AND table_name = 'tasklane_unique'"
            + " ORDER BY index_name, seq_in_index";
    String table =
        "SELECT engine, table_collation FROM information_schema.tables"
            + " WHERE table_schema = DATABASE() AND table_name = 'tasklane_unique'";
    assertThat(plain.query(columns))
        .extracting(r -> r.get("column_name"))
        .containsExactly("key_id", "handler", "unique_key", "task_id", "expires_at");
    assertThat(plain.query(indexes))
        .extracting(r -> r.get("index_name"), r -> r.get("column_name"))
        .containsExactly(
            tuple("PRIMARY", "key_id"), tuple("tasklane_unique_expires_at", "expires_at"));
    for (TestDb other : List.of(flyway, viaLiquibase)) {
      assertThat(other.query(columns)).isEqualTo(plain.query(columns));
      assertThat(other.query(indexes)).isEqualTo(plain.query(indexes));
      assertThat(other.query(table)).isEqualTo(plain.query(table));
    }
  }

  /** A new database without the outbox table. */
  private TestDb bare(String prefix) {
    return new TestDb(
        stack, stack.createDatabase(prefix + "_" + Long.toHexString(System.nanoTime())));
  }

  @Test
  void createIsIdempotentAndPrimaryKeyIsTheOnlyIndex() throws Exception {
    TestDb db = TestDb.create(stack, "outbox_schema");
    try (Connection c = db.connect()) {
      OutboxSchema.create(c);
    }
    List<Map<String, Object>> indexes =
        db.query(
            "SELECT DISTINCT index_name FROM information_schema.statistics"
                + " WHERE table_schema = DATABASE() AND table_name = 'tasklane_outbox'");
    assertThat(indexes).containsExactly(Map.of("index_name", "PRIMARY"));
    assertThat(db.query(COLUMNS))
        .extracting(r -> r.get("column_name"))
        .containsExactlyElementsOf(
            Arrays.stream(OutboxColumn.values()).map(OutboxColumn::columnName).toList());
  }

  @Test
  void liquibaseChangelogParsesAndCreatesTheSameTable() throws Exception {
    var xml = DocumentBuilderFactory.newInstance();
    xml.setNamespaceAware(true);
    try (var in =
        getClass().getClassLoader().getResourceAsStream(OutboxSchema.LIQUIBASE_CHANGELOG)) {
      assertThat(xml.newDocumentBuilder().parse(in).getDocumentElement().getLocalName())
          .isEqualTo("databaseChangeLog");
    }
    TestDb plain = TestDb.create(stack, "outbox_plain");
    String lbUrl = stack.createDatabase("outbox_lb_" + Long.toHexString(System.nanoTime()));
    TestDb viaLiquibase = new TestDb(stack, lbUrl);
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
    assertThat(viaLiquibase.query(COLUMNS)).isEqualTo(plain.query(COLUMNS));
    assertThat(
            viaLiquibase.query(
                "SELECT engine, table_collation FROM information_schema.tables"
                    + " WHERE table_schema = DATABASE() AND table_name = 'tasklane_outbox'"))
        .isEqualTo(
            plain.query(
                "SELECT engine, table_collation FROM information_schema.tables"
                    + " WHERE table_schema = DATABASE() AND table_name = 'tasklane_outbox'"));
  }
}
