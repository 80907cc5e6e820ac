package io.tasklane.relay.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/** One {@code tasklane_outbox} row as Debezium saw it (the {@code after} image of an insert). */
record OutboxRow(
    long id,
    String taskId,
    String routingKey,
    String kind,
    String handler,
    String taskKey,
    String payload,
    long dueAt,
    int maxAttempts,
    long timeoutMs,
    String backoff,
    String dependsOn,
    String headers,
    long createdAt) {

  /** The columns of the contract DDL; every one must exist (nullability is checked later). */
  static final List<String> COLUMNS =
      List.of(
          "id",
          "task_id",
          "routing_key",
          "kind",
          "handler",
          "task_key",
          "payload",
          "due_at",
          "max_attempts",
          "timeout_ms",
          "backoff",
          "depends_on",
          "headers",
          "created_at");

  /**
   * Contract columns {@code after} does not have: the table was altered (a column renamed or
   * dropped). Columns the contract does not know (an added column) are ignored.
   */
  static List<String> missingColumns(Struct after) {
    List<String> missing = new ArrayList<>();
    for (String c : COLUMNS) {
      if (after.schema().field(c) == null) {
        missing.add(c);
      }
    }
    return missing;
  }

  /**
   * Every column {@code after} has, clipped like {@link #toMap()}: the dead-letter copy of a row of
   * an altered table.
   */
  static Map<String, Object> columnsOf(Struct after) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (Field f : after.schema().fields()) {
      Object v = after.get(f);
      int max =
          f.name().equals("payload") ? DeadLetters.MAX_PAYLOAD_CHARS : DeadLetters.MAX_TEXT_CHARS;
      m.put(
          DeadLetters.clip(f.name(), DeadLetters.MAX_TEXT_CHARS),
          v == null || v instanceof Number ? v : DeadLetters.clip(v.toString(), max));
    }
    return m;
  }

  /** The {@code id} column of {@code after}, or -1 when it is missing or not a number. */
  static long idOf(Struct after) {
    Field f = after.schema().field("id");
    return f != null && after.get(f) instanceof Number n ? n.longValue() : -1;
  }

  /** Reads the columns of the contract DDL from Debezium's row struct. */
  static OutboxRow of(Struct after) {
    return new OutboxRow(
        longOf(after, "id"),
        str(after, "task_id"),
        str(after, "routing_key"),
        str(after, "kind"),
        str(after, "handler"),
        str(after, "task_key"),
        str(after, "payload"),
        longOf(after, "due_at"),
        (int) longOf(after, "max_attempts"),
        longOf(after, "timeout_ms"),
        str(after, "backoff"),
        str(after, "depends_on"),
        str(after, "headers"),
        longOf(after, "created_at"));
  }

  /**
   * The row as a JSON-able map for the dead-letter record: the payload clipped to {@link
   * DeadLetters#MAX_PAYLOAD_CHARS}, every other text to {@link DeadLetters#MAX_TEXT_CHARS}.
   */
  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("task_id", text(taskId));
    m.put("routing_key", text(routingKey));
    m.put("kind", text(kind));
    m.put("handler", text(handler));
    m.put("task_key", text(taskKey));
    m.put("payload", DeadLetters.clip(payload, DeadLetters.MAX_PAYLOAD_CHARS));
    m.put("due_at", dueAt);
    m.put("max_attempts", maxAttempts);
    m.put("timeout_ms", timeoutMs);
    m.put("backoff", text(backoff));
    m.put("depends_on", text(dependsOn));
    m.put("headers", text(headers));
    m.put("created_at", createdAt);
    return m;
  }

  private static String text(String s) {
    return DeadLetters.clip(s, DeadLetters.MAX_TEXT_CHARS);
  }

  private static String str(Struct s, String name) {
    Field f = s.schema().field(name);
    if (f == null) {
      return null;
    }
    Object v = s.get(f);
    return v == null ? null : v.toString();
  }

  private static long longOf(Struct s, String name) {
    Field f = s.schema().field(name);
    Object v = f == null ? null : s.get(f);
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v == null) {
      throw new IllegalArgumentException("column " + name + " is missing or null");
    }
    return Long.parseLong(v.toString());
  }
}
