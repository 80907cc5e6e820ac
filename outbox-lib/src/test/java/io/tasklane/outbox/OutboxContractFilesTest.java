package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.outbox.OutboxColumn;
import io.tasklane.core.outbox.OutboxDdl;
import jakarta.persistence.Column;
import jakarta.persistence.Id;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
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
  void flywayMigrationsAreThePlainDdlResources() {
    assertThat(OutboxSchema.resource(OutboxSchema.FLYWAY_MIGRATION))
        .isEqualTo(OutboxSchema.resource(OutboxSchema.DDL_RESOURCE));
    assertThat(OutboxSchema.resource(OutboxSchema.POSTGRESQL_FLYWAY_MIGRATION))
        .isEqualTo(OutboxSchema.resource(OutboxSchema.POSTGRESQL_DDL_RESOURCE));
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
      NodeList columns = table.getElementsByTagNameNS("*", "column");
      for (int i = 0; i < columns.getLength(); i++) {
        Element column = (Element) columns.item(i);
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
