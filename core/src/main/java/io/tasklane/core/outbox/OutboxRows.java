package io.tasklane.core.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.BatchPart;
import io.tasklane.core.CancelCommand;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.TasklaneException;
import io.tasklane.core.Unschedule;
import io.tasklane.core.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Maps records to outbox rows (the writer's side) and rows back to records (the reader's side).
 * Validation is the caller's: these methods only translate, failing on text that does not parse.
 * Stateless; any thread.
 */
public final class OutboxRows {
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
  private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {};

  private OutboxRows() {}

  /**
   * The {@link OutboxKind#TASK} row of {@code task}, its payload given as JSON text (the envelope
   * of a task being enqueued does not hold it). Empty {@code dependsOn}, {@code headers} and {@code
   * options} are stored as NULL.
   *
   * @throws InvalidTaskException when a JSON column cannot be encoded
   */
  public static OutboxRow task(TaskEnvelope task, String payloadJson) {
    return OutboxRow.builder()
        .taskId(task.id())
        .routingKey(task.routingKey())
        .kind(OutboxKind.TASK)
        .handler(task.handler())
        .taskKey(task.key())
        .payload(payloadJson)
        .dueAt(task.dueAt())
        .maxAttempts(task.maxAttempts())
        .timeoutMs(task.timeoutMs())
        .backoff(json("backoff", task.backoff(), RetryPolicy.class))
        .dependsOn(task.dependsOn().isEmpty() ? null : json("dependsOn", task.dependsOn()))
        .headers(task.headers().isEmpty() ? null : json("headers", task.headers()))
        .createdAt(task.createdAt())
        .options(
            task.options().isEmpty() ? null : json("options", task.options(), TaskOptions.class))
        .build();
  }

  /**
   * The {@link OutboxKind#CANCEL} row of {@code cancel}, routed by the task id; the reason is
   * stored as a JSON string in the payload column, the request time as {@code created_at}.
   */
  public static OutboxRow cancel(CancelCommand cancel) {
    return OutboxRow.builder()
        .taskId(cancel.id())
        .routingKey(cancel.id())
        .kind(OutboxKind.CANCEL)
        .handler(cancel.handler())
        .taskKey(cancel.key())
        .payload(cancel.reason() == null ? null : json("reason", cancel.reason(), String.class))
        .createdAt(cancel.requestedAt())
        .build();
  }

  /**
   * The {@link OutboxKind#SCHEDULE} row of {@code definition}: the record's JSON (with its {@code
   * version}) in the payload column, routed by the schedule's name, the handler copied for people
   * reading the table, zeros in the task columns.
   *
   * @param rowId the row's {@code task_id} (it names the row only, e.g. a UUIDv7)
   * @param createdAt epoch millis of the request
   */
  public static OutboxRow schedule(String rowId, ScheduleDefinition definition, long createdAt) {
    return OutboxRow.builder()
        .taskId(rowId)
        .routingKey(definition.name())
        .kind(OutboxKind.SCHEDULE)
        .handler(definition.handler())
        .payload(WireCodec.encodeToString(definition))
        .createdAt(createdAt)
        .build();
  }

  /**
   * The {@link OutboxKind#UNSCHEDULE} row of {@code unschedule}: the record's JSON in the payload
   * column, routed by the schedule's name, its request time as {@code created_at}.
   *
   * @param rowId the row's {@code task_id} (it names the row only, e.g. a UUIDv7)
   */
  public static OutboxRow unschedule(String rowId, Unschedule unschedule) {
    return OutboxRow.builder()
        .taskId(rowId)
        .routingKey(unschedule.name())
        .kind(OutboxKind.UNSCHEDULE)
        .payload(WireCodec.encodeToString(unschedule))
        .createdAt(unschedule.requestedAt())
        .build();
  }

  /**
   * The {@link OutboxKind#BATCH_PART} row of {@code part}: the record's JSON in the payload column,
   * routed by {@link BatchPart#key}, its part id as the row's {@code task_id}.
   */
  public static OutboxRow batchPart(BatchPart part) {
    return OutboxRow.builder()
        .taskId(part.part())
        .routingKey(BatchPart.key(part.batch()))
        .kind(OutboxKind.BATCH_PART)
        .payload(WireCodec.encodeToString(part))
        .createdAt(part.createdAt())
        .build();
  }

  /**
   * The part of a {@link OutboxKind#BATCH_PART} row. Not validated: check it with {@link
   * BatchPart#validate}.
   *
   * @throws IllegalArgumentException naming the column when the payload is not a batch part or its
   *     key is not the row's routing key
   */
  public static BatchPart toBatchPart(OutboxRow row) {
    BatchPart part = record(row, BatchPart.class);
    if (!Objects.equals(BatchPart.key(part.batch()), row.routingKey())) {
      throw new IllegalArgumentException(
          "routing_key: '"
              + row.routingKey()
              + "' is not the batch's key '"
              + BatchPart.key(part.batch())
              + "'");
    }
    return part;
  }

  /**
   * The definition of a {@link OutboxKind#SCHEDULE} row. Not validated: check it with {@code
   * ScheduleValidator}.
   *
   * @throws IllegalArgumentException naming the column when the payload is not a schedule record or
   *     its name is not the row's routing key
   */
  public static ScheduleDefinition toSchedule(OutboxRow row) {
    return keyed(row, record(row, ScheduleDefinition.class), ScheduleDefinition::name);
  }

  /**
   * The deletion of an {@link OutboxKind#UNSCHEDULE} row. Not validated: check it with {@code
   * ScheduleValidator}.
   *
   * @throws IllegalArgumentException naming the column when the payload is not an unschedule record
   *     or its name is not the row's routing key
   */
  public static Unschedule toUnschedule(OutboxRow row) {
    return keyed(row, record(row, Unschedule.class), Unschedule::name);
  }

  private static <T extends TaskTopicRecord> T record(OutboxRow row, Class<T> type) {
    String expected = OutboxKind.parse(row.kind()).recordType();
    if (row.payload() == null) {
      throw new IllegalArgumentException(
          "payload: is null (a " + row.kind() + " row holds a record)");
    }
    TaskTopicRecord record;
    try {
      record = WireCodec.decodeTaskRecord(row.payload().getBytes(StandardCharsets.UTF_8));
    } catch (TasklaneException e) {
      throw new IllegalArgumentException("payload: " + e.getMessage(), e);
    }
    if (!type.isInstance(record)) {
      throw new IllegalArgumentException(
          "payload: a "
              + row.kind()
              + " row needs a \""
              + expected
              + "\" record, got "
              + record.getClass().getSimpleName());
    }
    return type.cast(record);
  }

  private static <T> T keyed(OutboxRow row, T record, Function<T, String> name) {
    if (!Objects.equals(name.apply(record), row.routingKey())) {
      throw new IllegalArgumentException(
          "routing_key: '"
              + row.routingKey()
              + "' is not the schedule's name '"
              + name.apply(record)
              + "'");
    }
    return record;
  }

  /**
   * The task of a {@link OutboxKind#TASK} row read from {@code table}: the routing key becomes the
   * ordering key unless it is the task id; NULL JSON columns become the envelope's defaults. The
   * {@code options} JSON is read leniently ({@link TaskOptions}: fields this reader does not know
   * are ignored) but must be a JSON object of the right types.
   *
   * @throws IllegalArgumentException naming the column when the handler is null or a JSON column
   *     does not parse
   */
  public static TaskEnvelope toTask(OutboxRow row, String table) {
    if (row.handler() == null) {
      throw new IllegalArgumentException("handler: is null (a TASK row needs a handler)");
    }
    JsonNode payload = row.payload() == null ? null : parse("payload", row.payload());
    RetryPolicy backoff =
        row.backoff() == null ? null : convert("backoff", row.backoff(), RetryPolicy.class);
    List<String> deps =
        row.dependsOn() == null ? null : convert("depends_on", row.dependsOn(), STRINGS);
    Map<String, String> headers =
        row.headers() == null ? null : convert("headers", row.headers(), HEADERS);
    TaskOptions options = options(row.options());
    String orderingKey =
        row.routingKey() == null
                || row.routingKey().equals(row.taskId())
                || (options != null && row.routingKey().equals(options.concurrencyKey()))
            ? null
            : row.routingKey();
    return TaskEnvelope.builder()
        .id(row.taskId())
        .handler(row.handler())
        .key(row.taskKey())
        .orderingKey(orderingKey)
        .payload(payload)
        .dueAt(row.dueAt())
        .maxAttempts(row.maxAttempts())
        .timeoutMs(row.timeoutMs())
        .backoff(backoff)
        .dependsOn(deps)
        .headers(headers)
        .createdAt(row.createdAt())
        .source(new Source(table, row.id()))
        .options(options)
        .build();
  }

  private static TaskOptions options(String json) {
    if (json == null) {
      return null;
    }
    if (!parse("options", json).isObject()) {
      throw new IllegalArgumentException("options: not a JSON object");
    }
    return convert("options", json, TaskOptions.class);
  }

  /**
   * The cancel of a {@link OutboxKind#CANCEL} row: the payload's JSON string is the reason (other
   * JSON values are kept as their text, JSON null as no reason).
   *
   * @throws InvalidTaskException when the task id is malformed
   * @throws IllegalArgumentException when the payload does not parse
   */
  public static CancelCommand toCancel(OutboxRow row) {
    TaskIds.check("task_id", row.taskId());
    String reason = null;
    if (row.payload() != null) {
      JsonNode node = parse("payload", row.payload());
      reason = node.isNull() ? null : node.isTextual() ? node.asText() : node.toString();
    }
    return CancelCommand.of(row.taskId(), reason, row.createdAt())
        .withTask(row.handler(), row.taskKey());
  }

  private static String json(String field, Object value) {
    return json(field, value, Object.class);
  }

  private static String json(String field, Object value, Class<?> type) {
    try {
      return WireCodec.mapper().writerFor(type).writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new InvalidTaskException(field, "cannot be encoded as JSON: " + e.getOriginalMessage());
    }
  }

  private static JsonNode parse(String column, String json) {
    try {
      return WireCodec.readTree(json);
    } catch (TasklaneException e) {
      throw new IllegalArgumentException(column + ": " + e.getMessage(), e);
    }
  }

  private static <T> T convert(String column, String json, Class<T> type) {
    try {
      return WireCodec.mapper().readValue(json, type);
    } catch (Exception e) {
      throw new IllegalArgumentException(
          column + ": not a valid " + type.getSimpleName() + ": " + firstLine(e), e);
    }
  }

  private static <T> T convert(String column, String json, TypeReference<T> type) {
    try {
      return WireCodec.mapper().readValue(json, type);
    } catch (Exception e) {
      throw new IllegalArgumentException(
          column + ": not valid JSON of the expected shape: " + firstLine(e), e);
    }
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
