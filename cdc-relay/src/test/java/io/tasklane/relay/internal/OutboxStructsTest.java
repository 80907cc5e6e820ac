package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.outbox.OutboxColumn;
import io.tasklane.core.outbox.OutboxRow;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class OutboxStructsTest {
  private static final OutboxRow ROW =
      new OutboxRow(7, "t-1", "r-1", "CANCEL", null, "k", "\"why\"", 0, 0, 0, null, null, null, 9);

  /** The struct Debezium produces for {@code row}, optionally without column {@code dropped}. */
  private static Struct struct(OutboxRow row, String dropped) {
    SchemaBuilder schema = SchemaBuilder.struct();
    for (OutboxColumn c : OutboxColumn.values()) {
      if (c.columnName().equals(dropped)) {
        continue;
      }
      schema.field(
          c.columnName(),
          switch (c.value()) {
            case LONG -> Schema.INT64_SCHEMA;
            case INT -> Schema.INT32_SCHEMA;
            case TEXT -> c.nullable() ? Schema.OPTIONAL_STRING_SCHEMA : Schema.STRING_SCHEMA;
          });
    }
    schema.field("added_later", Schema.OPTIONAL_STRING_SCHEMA);
    Struct s = new Struct(schema.build());
    for (OutboxColumn c : OutboxColumn.values()) {
      if (!c.columnName().equals(dropped)) {
        s.put(c.columnName(), c.get(row));
      }
    }
    return s.put("added_later", "x");
  }

  @Test
  void readsEveryContractColumnIgnoringAddedOnes() {
    Struct after = struct(ROW, null);

    assertThat(OutboxStructs.missingColumns(after)).isEmpty();
    assertThat(OutboxStructs.read(after)).isEqualTo(ROW);
    assertThat(OutboxStructs.idOf(after)).isEqualTo(7);
  }

  @Test
  void namesTheContractColumnsAnAlteredTableLacks() {
    Struct after = struct(ROW, "due_at");

    assertThat(OutboxStructs.missingColumns(after)).containsExactly("due_at");
    assertThat(OutboxStructs.columnsOf(after))
        .containsEntry("id", 7L)
        .containsEntry("added_later", "x")
        .doesNotContainKey("due_at");
    assertThatThrownBy(() -> OutboxStructs.read(after))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("column due_at is missing or null");
    assertThat(OutboxStructs.idOf(struct(ROW, "id"))).isEqualTo(-1);
  }

  @Test
  void deadLetterCopiesClipTextAndKeepNumbers() {
    String huge = "x".repeat(DeadLetters.MAX_PAYLOAD_CHARS + 10);
    OutboxRow row = ROW.toBuilder().payload(huge).taskKey(huge).build();

    Map<String, Object> copy = DeadLetters.rowOf(row);

    assertThat(copy.keySet()).containsExactlyElementsOf(row.columns().keySet());
    assertThat((String) copy.get("payload"))
        .startsWith("x".repeat(DeadLetters.MAX_PAYLOAD_CHARS) + "…(");
    assertThat((String) copy.get("task_key"))
        .startsWith("x".repeat(DeadLetters.MAX_TEXT_CHARS) + "…(");
    assertThat(copy)
        .containsEntry("id", 7L)
        .containsEntry("max_attempts", 0)
        .containsEntry("handler", null);
    assertThat(OutboxStructs.columnsOf(struct(row, null)).get("payload"))
        .isEqualTo(copy.get("payload"));
  }

  @Test
  void aTableWithoutTheColumnsOfALaterSchemaVersionIsReadWithThemNull() {
    OutboxRow withOptions = ROW.toBuilder().options("{\"v\":1,\"waitTimeoutMs\":5000}").build();
    Struct migrated = struct(withOptions, null);
    assertThat(OutboxStructs.read(migrated)).isEqualTo(withOptions);

    Struct notMigrated = struct(ROW, OutboxColumn.OPTIONS.columnName());

    assertThat(OutboxStructs.missingColumns(notMigrated)).isEmpty();
    assertThat(OutboxStructs.read(notMigrated)).isEqualTo(ROW);
    assertThat(OutboxStructs.read(notMigrated).options()).isNull();
  }
}
