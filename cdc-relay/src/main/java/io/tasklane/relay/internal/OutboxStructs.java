package io.tasklane.relay.internal;

import io.tasklane.core.outbox.OutboxColumn;
import io.tasklane.core.outbox.OutboxRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * Reads {@code tasklane_outbox} rows as Debezium sees them (the {@code after} image of an insert)
 * into the core {@link OutboxRow}. Stateless; called on the engine thread.
 */
final class OutboxStructs {
  private OutboxStructs() {}

  /**
   * Required contract columns ({@link OutboxColumn#required()}) {@code after} does not have: the
   * table was altered (a column renamed or dropped). A column a later schema version added (e.g.
   * {@code options}) may be missing: the table has not been migrated yet, and {@link #read} takes
   * it as null. Columns the contract does not know (an added column) are ignored.
   */
  static List<String> missingColumns(Struct after) {
    List<String> missing = new ArrayList<>();
    for (OutboxColumn c : OutboxColumn.values()) {
      if (c.required() && after.schema().field(c.columnName()) == null) {
        missing.add(c.columnName());
      }
    }
    return missing;
  }

  /**
   * Every column {@code after} has, clipped like {@link DeadLetters#rowOf}: the dead-letter copy of
   * a row of an altered table.
   */
  static Map<String, Object> columnsOf(Struct after) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (Field f : after.schema().fields()) {
      m.put(
          DeadLetters.clip(f.name(), DeadLetters.MAX_TEXT_CHARS), clipped(f.name(), after.get(f)));
    }
    return m;
  }

  /** The {@code id} column of {@code after}, or -1 when it is missing or not a number. */
  static long idOf(Struct after) {
    Field f = after.schema().field(OutboxColumn.ID.columnName());
    return f != null && after.get(f) instanceof Number n ? n.longValue() : -1;
  }

  /**
   * Reads the contract's columns from Debezium's row struct, in table order; a missing column is
   * null.
   *
   * @throws IllegalArgumentException when a numeric column is missing, null or not a number
   */
  static OutboxRow read(Struct after) {
    OutboxRow.Builder row = OutboxRow.builder();
    for (OutboxColumn c : OutboxColumn.values()) {
      Field f = after.schema().field(c.columnName());
      row.read(c, f == null ? null : after.get(f));
    }
    return row.build();
  }

  /** A column value as a dead letter keeps it: numbers and null as they are, text clipped. */
  static Object clipped(String column, Object v) {
    int max =
        column.equals(OutboxColumn.PAYLOAD.columnName())
            ? DeadLetters.MAX_PAYLOAD_CHARS
            : DeadLetters.MAX_TEXT_CHARS;
    return v == null || v instanceof Number ? v : DeadLetters.clip(v.toString(), max);
  }
}
