package io.tasklane.core.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.CancelCommand;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TasklaneException;
import io.tasklane.core.WireCodec;
import java.util.List;
import java.util.Map;

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
   * of a task being enqueued does not hold it). Empty {@code dependsOn} and {@code headers} are
   * stored as NULL.
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
   * The task of a {@link OutboxKind#TASK} row read from {@code table}: the routing key becomes the
   * ordering key unless it is the task id; NULL JSON columns become the envelope's defaults.
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
    String orderingKey =
        row.routingKey() == null || row.routingKey().equals(row.taskId()) ? null : row.routingKey();
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
        .build();
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
