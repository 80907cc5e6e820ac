package io.tasklane.core.outbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.WireCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * Batched outbox rows: several {@link OutboxKind#TASK} rows packed into one {@link
 * OutboxKind#BATCH} row, so that the binlog (or WAL), the change-data capture and the row parse
 * cost per batch rather than per task. The batch row's {@code payload} is a JSON array with one
 * object per task holding that task row's columns by name ({@code task_id}, {@code routing_key},
 * {@code handler}, …, {@code payload} as JSON text); its own {@code task_id}, {@code routing_key}
 * and {@code handler} are the first task's, its {@code created_at} the earliest. The relay unpacks
 * it with {@link #unpack} and treats every element as the row it stands for: validated one by one,
 * published in order, a bad one dead-lettered alone. Stateless; any thread.
 */
public final class OutboxBatches {
  /** Most tasks in one batch row. */
  public static final int MAX_TASKS = 1_000;

  /** Most bytes of a batch row's payload (the JSON array); a single larger task stays alone. */
  public static final int MAX_BYTES = 4 * 1024 * 1024;

  private OutboxBatches() {}

  /**
   * {@code tasks} (TASK rows, not yet inserted) as rows to insert, in order: runs of up to {@code
   * maxTasks} tasks and {@link #MAX_BYTES} become one BATCH row each; a run of one stays the plain
   * TASK row. {@code maxTasks} ≤ 1 leaves every row as it is.
   */
  public static List<OutboxRow> pack(List<OutboxRow> tasks, int maxTasks) {
    if (maxTasks <= 1 || tasks.size() <= 1) {
      return tasks;
    }
    int cap = Math.min(maxTasks, MAX_TASKS);
    List<OutboxRow> rows = new ArrayList<>();
    List<OutboxRow> run = new ArrayList<>();
    ArrayNode array = WireCodec.mapper().createArrayNode();
    long bytes = 2;
    for (OutboxRow task : tasks) {
      if (OutboxKind.parse(task.kind()) != OutboxKind.TASK) {
        throw new IllegalArgumentException("only TASK rows are batched, not " + task.kind());
      }
      ObjectNode element = element(task);
      long size = WireCodec.encode(element).length + 1L;
      if (!run.isEmpty() && (run.size() >= cap || bytes + size > MAX_BYTES)) {
        rows.add(close(run, array));
        run = new ArrayList<>();
        array = WireCodec.mapper().createArrayNode();
        bytes = 2;
      }
      run.add(task);
      array.add(element);
      bytes += size;
    }
    rows.add(close(run, array));
    return rows;
  }

  /**
   * The TASK rows a BATCH row stands for, in order, each with the batch row's id.
   *
   * @throws InvalidTaskException naming {@code payload} when it is not an array of task objects
   *     with every column of the contract present and of the right type
   */
  public static List<OutboxRow> unpack(OutboxRow batch) {
    JsonNode array;
    try {
      array = WireCodec.mapper().readTree(batch.payload() == null ? "null" : batch.payload());
    } catch (Exception e) {
      throw new InvalidTaskException("payload", "a batch row's payload is not JSON");
    }
    if (array == null || !array.isArray() || array.isEmpty() || array.size() > MAX_TASKS) {
      throw new InvalidTaskException(
          "payload",
          "a batch row's payload must be a JSON array of 1 to " + MAX_TASKS + " task objects");
    }
    List<OutboxRow> rows = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      rows.add(row(batch.id(), array.get(i), i));
    }
    return rows;
  }

  private static ObjectNode element(OutboxRow task) {
    ObjectNode o = WireCodec.mapper().createObjectNode();
    for (OutboxColumn c : OutboxColumn.values()) {
      if (c == OutboxColumn.ID || c == OutboxColumn.KIND) {
        continue;
      }
      Object v = c.get(task);
      switch (c.value()) {
        case TEXT -> {
          if (v != null) {
            o.put(c.columnName(), (String) v);
          }
        }
        case LONG -> o.put(c.columnName(), (long) v);
        case INT -> o.put(c.columnName(), (int) v);
      }
    }
    return o;
  }

  private static OutboxRow close(List<OutboxRow> run, ArrayNode array) {
    OutboxRow first = run.get(0);
    if (run.size() == 1) {
      return first;
    }
    long createdAt = run.stream().mapToLong(OutboxRow::createdAt).min().orElse(0);
    return first.toBuilder()
        .kind(OutboxKind.BATCH)
        .taskKey(null)
        .payload(WireCodec.encodeToString(array))
        .backoff(null)
        .dependsOn(null)
        .headers(null)
        .options(null)
        .createdAt(createdAt)
        .build();
  }

  private static OutboxRow row(long id, JsonNode o, int index) {
    String where = "batch element " + index;
    if (o == null || !o.isObject()) {
      throw new InvalidTaskException("payload", where + " is not a JSON object");
    }
    OutboxRow.Builder b = OutboxRow.builder().id(id).kind(OutboxKind.TASK);
    for (OutboxColumn c : OutboxColumn.values()) {
      if (c == OutboxColumn.ID || c == OutboxColumn.KIND) {
        continue;
      }
      JsonNode v = o.get(c.columnName());
      if (v == null || v.isNull()) {
        if (!c.nullable()) {
          throw new InvalidTaskException(c.columnName(), "is missing in " + where);
        }
        continue;
      }
      boolean ok =
          switch (c.value()) {
            case TEXT -> v.isTextual();
            case LONG -> v.canConvertToLong() && v.isIntegralNumber();
            case INT -> v.canConvertToInt() && v.isIntegralNumber();
          };
      if (!ok) {
        throw new InvalidTaskException(
            c.columnName(), "in " + where + " is not a " + c.value().name().toLowerCase());
      }
      c.set(
          b,
          switch (c.value()) {
            case TEXT -> v.textValue();
            case LONG -> v.longValue();
            case INT -> v.intValue();
          });
    }
    return b.build();
  }
}
