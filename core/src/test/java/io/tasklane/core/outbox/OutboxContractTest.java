package io.tasklane.core.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.TaskTopicRecord;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutboxContractTest {
  private static final OutboxRow ROW =
      new OutboxRow(
          7,
          "t-1",
          "r-1",
          "TASK",
          "a.b",
          "k",
          "{}",
          10,
          5,
          60_000,
          "{\"kind\":\"sidekiq\"}",
          "[]",
          "{}",
          9,
          "{\"v\":1,\"waitTimeoutMs\":5000}");

  @Test
  void kindsAreStoredByNameAndBecomeTheirRecordType() {
    assertThat(OutboxKind.parse("TASK")).isEqualTo(OutboxKind.TASK);
    assertThat(OutboxKind.parse("CANCEL")).isEqualTo(OutboxKind.CANCEL);
    assertThat(OutboxKind.TASK.column()).isEqualTo("TASK");
    assertThat(OutboxKind.TASK.recordType()).isEqualTo(TaskTopicRecord.TASK_TYPE);
    assertThat(OutboxKind.CANCEL.recordType()).isEqualTo(TaskTopicRecord.CANCEL_TYPE);
    assertThat(OutboxKind.parse("SCHEDULE")).isEqualTo(OutboxKind.SCHEDULE);
    assertThat(OutboxKind.parse("UNSCHEDULE")).isEqualTo(OutboxKind.UNSCHEDULE);
    assertThat(OutboxKind.SCHEDULE.recordType()).isEqualTo("schedule");
    assertThat(OutboxKind.UNSCHEDULE.recordType()).isEqualTo("unschedule");
    for (OutboxKind kind : OutboxKind.values()) {
      assertThat(kind.column().length()).isLessThanOrEqualTo(OutboxColumn.KIND.length());
    }
  }

  @Test
  void unknownKindsAreRefusedNamingTheValue() {
    assertThat(OutboxKind.ofColumn("task")).isEmpty();
    assertThat(OutboxKind.ofColumn(null)).isEmpty();
    assertThatThrownBy(() -> OutboxKind.parse("RETRY"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "kind: unknown kind 'RETRY' (expected TASK, CANCEL, SCHEDULE, UNSCHEDULE, BATCH or"
                + " BATCH_PART)");
    assertThatThrownBy(() -> OutboxKind.parse(null)).hasMessageContaining("'null'");
  }

  @Test
  void everyColumnIsOneRecordComponentInTableOrder() {
    assertThat(
            Arrays.stream(OutboxRow.class.getRecordComponents())
                .map(c -> c.getName().replaceAll("([A-Z])", "_$1").toLowerCase()))
        .containsExactlyElementsOf(
            Arrays.stream(OutboxColumn.values()).map(OutboxColumn::columnName).toList());
    assertThat(OutboxColumn.inserted()).doesNotContain(OutboxColumn.ID).hasSize(14);
  }

  @Test
  void theBuilderAndTheColumnsCarryEveryValue() {
    assertThat(ROW.toBuilder().build()).isEqualTo(ROW);
    OutboxRow.Builder b = OutboxRow.builder();
    ROW.columns().forEach((name, v) -> b.read(column(name), v));
    assertThat(b.build()).isEqualTo(ROW);
    assertThat(ROW.columns())
        .containsEntry("id", 7L)
        .containsEntry("max_attempts", 5)
        .containsEntry("kind", "TASK")
        .hasSize(OutboxColumn.values().length);
  }

  @Test
  void readingConvertsNumbersAndTextAsDriversReportThem() {
    OutboxRow row =
        OutboxRow.builder()
            .read(OutboxColumn.ID, 3)
            .read(OutboxColumn.DUE_AT, "12")
            .read(OutboxColumn.MAX_ATTEMPTS, 4L)
            .read(OutboxColumn.HANDLER, new StringBuilder("a.b"))
            .build();
    assertThat(row.id()).isEqualTo(3);
    assertThat(row.dueAt()).isEqualTo(12);
    assertThat(row.maxAttempts()).isEqualTo(4);
    assertThat(row.handler()).isEqualTo("a.b");
    assertThatThrownBy(() -> OutboxRow.builder().read(OutboxColumn.CREATED_AT, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("column created_at is missing or null");
    assertThatThrownBy(() -> OutboxRow.builder().read(OutboxColumn.TIMEOUT_MS, "soon"))
        .isInstanceOf(NumberFormatException.class);
  }

  @Test
  void columnsKnowTheirTypes() {
    assertThat(OutboxColumn.TASK_ID.length()).isEqualTo(36);
    assertThat(OutboxColumn.BACKOFF.length()).isEqualTo(4000);
    assertThat(OutboxColumn.PAYLOAD.length()).isEqualTo(-1);
    assertThat(OutboxColumn.PAYLOAD.postgresqlType()).isEqualTo("TEXT");
    assertThat(OutboxColumn.DUE_AT.postgresqlType()).isEqualTo("BIGINT");
    assertThat(
            Map.of(
                "kind", OutboxColumn.KIND.nullable(), "handler", OutboxColumn.HANDLER.nullable()))
        .containsEntry("kind", false)
        .containsEntry("handler", true);
  }

  @Test
  void theDdlDeclaresEveryColumnOnce() {
    for (String ddl : new String[] {OutboxDdl.mariadb(), OutboxDdl.postgresql()}) {
      assertThat(ddl)
          .startsWith("CREATE TABLE IF NOT EXISTS tasklane_outbox (\n")
          .doesNotEndWith(";");
      for (OutboxColumn c : OutboxColumn.values()) {
        assertThat(ddl).containsOnlyOnce("\n  " + c.columnName() + " ");
      }
    }
    assertThat(OutboxDdl.mariadb())
        .contains("  id            BIGINT        NOT NULL AUTO_INCREMENT,\n")
        .contains("  payload       LONGTEXT      NULL,\n")
        .endsWith("  PRIMARY KEY (id)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
    assertThat(OutboxDdl.postgresql())
        .contains("  id            BIGINT        GENERATED BY DEFAULT AS IDENTITY NOT NULL,\n")
        .contains("  payload       TEXT          NULL,\n")
        .endsWith("  PRIMARY KEY (id)\n)");
  }

  @Test
  void laterColumnsAreNullableAndAtTheEndAndTheirVersionsHaveMigrations() {
    assertThat(OutboxColumn.asOf(1)).hasSize(14).doesNotContain(OutboxColumn.OPTIONS);
    assertThat(OutboxColumn.asOf(OutboxColumn.SCHEMA_VERSION))
        .containsExactly(OutboxColumn.values());
    assertThat(OutboxColumn.addedBy(2)).containsExactly(OutboxColumn.OPTIONS);
    int version = 1;
    for (OutboxColumn c : OutboxColumn.values()) {
      assertThat(c.since()).as(c.columnName()).isGreaterThanOrEqualTo(version);
      version = c.since();
      assertThat(c.required()).isEqualTo(c.since() == 1);
      if (!c.required()) {
        assertThat(c.nullable()).as(c.columnName()).isTrue();
      }
    }
    assertThat(version).isEqualTo(OutboxColumn.SCHEMA_VERSION);
    assertThat(OutboxDdl.mariadbMigration(2))
        .isEqualTo("ALTER TABLE tasklane_outbox\n  ADD COLUMN options TEXT NULL");
    assertThat(OutboxDdl.postgresqlMigration(2))
        .isEqualTo("ALTER TABLE tasklane_outbox\n  ADD COLUMN options TEXT NULL");
    assertThatThrownBy(() -> OutboxDdl.mariadbMigration(1))
        .hasMessage("schema version 1 adds no column");
    assertThat(OutboxDdl.mariadb(1)).doesNotContain("options");
    assertThat(OutboxDdl.mariadb()).contains("  options       TEXT          NULL,\n");
  }

  @Test
  void aRowOfTheFirstTableHasNoOptions() {
    OutboxRow v1 =
        new OutboxRow(
            7, "t-1", "r-1", "TASK", "a.b", "k", "{}", 10, 5, 60_000, null, null, null, 9);
    assertThat(v1.options()).isNull();
    assertThat(v1)
        .isEqualTo(
            ROW.toBuilder().backoff(null).dependsOn(null).headers(null).options(null).build());
  }

  private static OutboxColumn column(String name) {
    return Arrays.stream(OutboxColumn.values())
        .filter(c -> c.columnName().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
