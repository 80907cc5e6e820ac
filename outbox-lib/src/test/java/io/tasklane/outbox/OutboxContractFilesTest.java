package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.outbox.OutboxColumn;
import io.tasklane.core.outbox.OutboxDdl;
import jakarta.persistence.Column;
import jakarta.persistence.Id;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Every shipped form of the table (plain DDL, Flyway migrations, Liquibase changelog, JPA entity,
 * INSERT statement) declares exactly the columns of the core contract {@link OutboxColumn}. After
 * changing the contract, paste the rendered {@link OutboxDdl} statements the failures print.
 */
class OutboxContractFilesTest {

  @Test
  void plainDdlResourcesAreTheContractsDdl() {
    assertThat(OutboxSchema.ddl(OutboxSchema.Dialect.MARIADB)).isEqualTo(OutboxDdl.mariadb());
    assertThat(OutboxSchema.ddl(OutboxSchema.Dialect.POSTGRESQL)).isEqualTo(OutboxDdl.postgresql());
  }

  @Test
  void flywayMigrationsAreTheContractsTableOfTheirVersionAndItsMigrations() {
    assertThat(statement(OutboxSchema.FLYWAY_MIGRATION)).isEqualTo(OutboxDdl.mariadb(1));
    assertThat(statement(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION))
        .isEqualTo(OutboxDdl.postgresql(1));
    assertThat(statement(OutboxSchema.FLYWAY_MIGRATION_V2))
        .isEqualTo(OutboxDdl.mariadbMigration(2));
    assertThat(statement(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION_V2))
        .isEqualTo(OutboxDdl.postgresqlMigration(2));
    // One migration per schema version: a new column needs a V<n> file of each dialect. Flyway's
    // V3 is the unique table (the outbox's columns are unchanged), so the next column takes V4.
    assertThat(OutboxColumn.SCHEMA_VERSION).isEqualTo(2);
    assertThat(OutboxSchema.uniqueDdl(OutboxSchema.Dialect.MARIADB))
        .containsExactly(statement(OutboxSchema.FLYWAY_MIGRATION_V3));
    assertThat(OutboxSchema.uniqueDdl(OutboxSchema.Dialect.POSTGRESQL))
        .containsExactlyElementsOf(
            Arrays.stream(statement(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION_V3).split(";"))
                .map(String::strip)
                .toList());
  }

  /**
   * Released Flyway migrations are byte-stable: Flyway checksums every applied file and refuses to
   * start when one changed. A new column is a new V&lt;n&gt; migration, never an edit of these.
   */
  @Test
  void releasedFlywayMigrationsNeverChange() throws Exception {
    assertThat(sha256(OutboxSchema.FLYWAY_MIGRATION))
        .isEqualTo("bc185d6b6e7e0873c1a8724ced5a9076646b9cd3325e30512984348a8e1817b0");
    assertThat(sha256(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION))
        .isEqualTo("f4c3082e1d6cf82d6d2c7869ab700abf5b866f2e502acfc8cb70c4f38381b003");
  }

  /**
   * Nothing of Tasklane's lies in Flyway's default location {@code db/migration}, where an
   * application's own Flyway (Spring Boot's, Micronaut's) would pick it up by accident and clash
   * with the application's own {@code V1}.
   */
  @Test
  void noMigrationInFlywaysDefaultLocation() throws Exception {
    ClassLoader loader = OutboxSchema.class.getClassLoader();
    assertThat(loader.getResource("db/migration/V1__tasklane_outbox.sql")).isNull();
    assertThat(loader.getResource("db/migration/V2__tasklane_outbox_options.sql")).isNull();
    assertThat(loader.getResource("db/migration/V3__tasklane_unique.sql")).isNull();
    assertThat(loader.getResources("db/migration").hasMoreElements())
        .as("a db/migration directory on the outbox's classpath")
        .isFalse();
    for (String migration :
        List.of(
            OutboxSchema.FLYWAY_MIGRATION,
            OutboxSchema.FLYWAY_MIGRATION_V2,
            OutboxSchema.FLYWAY_MIGRATION_V3)) {
      assertThat(loader.getResource(migration)).as(migration).isNotNull();
      assertThat("classpath:" + migration.substring(0, migration.lastIndexOf('/')))
          .isEqualTo(OutboxSchema.FLYWAY_LOCATION);
    }
  }

  private static String statement(String resource) {
    String sql =
        OutboxSchema.resource(resource)
            .lines()
            .filter(line -> !line.stripLeading().startsWith("--"))
            .collect(Collectors.joining("\n"))
            .strip();
    return sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
  }

  private static String sha256(String resource) throws Exception {
    byte[] digest =
        MessageDigest.getInstance("SHA-256")
            .digest(OutboxSchema.resource(resource).getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(digest);
  }

  @Test
  void liquibaseChangelogDeclaresTheContractsColumns() throws Exception {
    var factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    List<String> declared = new ArrayList<>();
    try (var in =
        getClass().getClassLoader().getResourceAsStream(OutboxSchema.LIQUIBASE_CHANGELOG)) {
      var doc = factory.newDocumentBuilder().parse(in);
      Element table = (Element) doc.getElementsByTagNameNS("*", "createTable").item(0);
      assertThat(table.getAttribute("tableName")).isEqualTo(OutboxDdl.TABLE);
      NodeList changeSets = doc.getElementsByTagNameNS("*", "changeSet");
      // The outbox's change sets, then the unique table's and its index's (SchemaResourcesTest
      // compares them with the plain DDL).
      assertThat(changeSets.getLength()).isEqualTo(OutboxColumn.SCHEMA_VERSION + 2);
      assertThat(((Element) changeSets.item(OutboxColumn.SCHEMA_VERSION + 1)).getAttribute("id"))
          .isEqualTo("tasklane-unique-2");
      Element unique = (Element) changeSets.item(OutboxColumn.SCHEMA_VERSION);
      assertThat(unique.getAttribute("id")).isEqualTo("tasklane-unique-1");
      assertThat(
              ((Element) unique.getElementsByTagNameNS("*", "createTable").item(0))
                  .getAttribute("tableName"))
          .isEqualTo(OutboxSchema.UNIQUE_TABLE);
      for (int v = 1; v <= OutboxColumn.SCHEMA_VERSION; v++) {
        assertThat(((Element) changeSets.item(v - 1)).getAttribute("id"))
            .isEqualTo("tasklane-outbox-" + v);
      }
      // The first change set creates the first table; each later one adds its version's columns.
      assertThat(table.getParentNode()).isEqualTo(changeSets.item(0));
      assertThat(table.getElementsByTagNameNS("*", "column").getLength())
          .isEqualTo(OutboxColumn.asOf(1).size());
      for (int v = 2; v <= OutboxColumn.SCHEMA_VERSION; v++) {
        Element added =
            (Element)
                ((Element) changeSets.item(v - 1)).getElementsByTagNameNS("*", "addColumn").item(0);
        assertThat(added.getElementsByTagNameNS("*", "column").getLength())
            .isEqualTo(OutboxColumn.addedBy(v).size());
      }
      List<Element> columns = new ArrayList<>();
      for (int v = 1; v <= OutboxColumn.SCHEMA_VERSION; v++) {
        NodeList of = ((Element) changeSets.item(v - 1)).getElementsByTagNameNS("*", "column");
        for (int i = 0; i < of.getLength(); i++) {
          columns.add((Element) of.item(i));
        }
      }
      for (Element column : columns) {
        Element constraints = (Element) column.getElementsByTagNameNS("*", "constraints").item(0);
        boolean nullable =
            constraints == null || !"false".equals(constraints.getAttribute("nullable"));
        String extra =
            "true".equals(column.getAttribute("autoIncrement"))
                    && constraints != null
                    && "true".equals(constraints.getAttribute("primaryKey"))
                ? " generated"
                : "";
        declared.add(
            column.getAttribute("name")
                + " "
                + column.getAttribute("type")
                + (nullable ? " NULL" : " NOT NULL")
                + extra);
      }
    }
    assertThat(declared)
        .containsExactlyElementsOf(
            Arrays.stream(OutboxColumn.values())
                .map(
                    c ->
                        c.columnName()
                            + " "
                            + c.sqlType()
                            + (c.nullable() ? " NULL" : " NOT NULL")
                            + (c.generated() ? " generated" : ""))
                .toList());
  }

  @Test
  void jpaEntityMapsTheContractsColumns() {
    List<String> mapped = new ArrayList<>();
    for (Field f : OutboxEntry.class.getDeclaredFields()) {
      Column column = f.getAnnotation(Column.class);
      if (column == null) {
        continue;
      }
      OutboxColumn contract = OutboxColumn.valueOf(column.name().toUpperCase());
      mapped.add(column.name());
      assertThat(column.updatable()).as(column.name()).isFalse();
      if (contract.generated()) {
        assertThat(f.getAnnotation(Id.class)).as(column.name()).isNotNull();
        continue;
      }
      assertThat(column.nullable()).as(column.name()).isEqualTo(contract.nullable());
      if (contract.length() > 0) {
        assertThat(column.length()).as(column.name()).isEqualTo(contract.length());
      }
    }
    assertThat(mapped)
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(OutboxColumn.values()).map(OutboxColumn::columnName).toList());
  }

  @Test
  void insertNamesEveryColumnButTheGeneratedId() {
    String sql = OutboxInserts.SQL;
    assertThat(sql).startsWith("INSERT INTO " + OutboxDdl.TABLE + " (");
    String names = sql.substring(sql.indexOf('(') + 1, sql.indexOf(')'));
    assertThat(names.split(", "))
        .containsExactlyElementsOf(
            OutboxColumn.inserted().stream().map(OutboxColumn::columnName).toList())
        .doesNotContain(OutboxColumn.ID.columnName());
    assertThat(sql)
        .endsWith(
            " VALUES ("
                + String.join(", ", Collections.nCopies(names.split(", ").length, "?"))
                + ")");
  }
}
