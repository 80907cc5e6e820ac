package io.tasklane.relay.internal;

import java.util.LinkedHashMap;
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
