package io.tasklane.relay.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.CancelCommand;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskValidator;
import io.tasklane.core.TasklaneException;
import io.tasklane.core.WireCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Maps outbox rows to wire records, validating them with {@link TaskValidator}. Never throws for a
 * bad row: it answers {@link Mapped.Rejected} with the reason. Stateless and thread-safe.
 */
final class RowMapper {
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
  private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {};

  private final String table;
  private final TaskValidator validator;

  RowMapper(String table, TaskLimits limits) {
    this.table = table;
    this.validator = new TaskValidator(limits);
  }

  Mapped map(OutboxRow row, long nowMs) {
    try {
      if (row.routingKey() == null || row.routingKey().isEmpty()) {
        return new Mapped.Rejected("routing_key: is empty");
      }
      if ("TASK".equals(row.kind())) {
        return task(row, nowMs);
      }
      if ("CANCEL".equals(row.kind())) {
        return cancel(row);
      }
      return new Mapped.Rejected(
          "kind: unknown kind '" + row.kind() + "' (expected TASK or CANCEL)");
    } catch (TasklaneException | IllegalArgumentException e) {
      return new Mapped.Rejected(e.getMessage());
    }
  }

  private Mapped task(OutboxRow row, long nowMs) {
    if (row.handler() == null) {
      return new Mapped.Rejected("handler: is null (a TASK row needs a handler)");
    }
    JsonNode payload = row.payload() == null ? null : parse("payload", row.payload());
    int payloadBytes =
        row.payload() == null ? 4 : row.payload().getBytes(StandardCharsets.UTF_8).length;
    RetryPolicy backoff =
        row.backoff() == null ? null : convert("backoff", row.backoff(), RetryPolicy.class);
    List<String> deps =
        row.dependsOn() == null ? null : convert("depends_on", row.dependsOn(), STRINGS);
    Map<String, String> headers =
        row.headers() == null ? null : convert("headers", row.headers(), HEADERS);
    String orderingKey = row.routingKey().equals(row.taskId()) ? null : row.routingKey();
    TaskEnvelope task =
        TaskEnvelope.builder()
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
    validator.validate(task, payloadBytes, nowMs);
    byte[] value = WireCodec.encode(task);
    int recordBytes = value.length + row.routingKey().getBytes(StandardCharsets.UTF_8).length;
    if (recordBytes > TaskLimits.MAX_RECORD_BYTES) {
      return new Mapped.Rejected(
          "record: the encoded task is "
              + recordBytes
              + " bytes; the limit is "
              + TaskLimits.MAX_RECORD_BYTES
              + " bytes (the 1 MiB payload cap plus "
              + TaskLimits.MAX_ENVELOPE_OVERHEAD_BYTES
              + " for the other fields)");
    }
    return new Mapped.Relayed(row.routingKey(), value, "task");
  }

  private Mapped cancel(OutboxRow row) {
    TaskIds.check("task_id", row.taskId());
    String reason = null;
    if (row.payload() != null) {
      JsonNode node = parse("payload", row.payload());
      reason = node.isNull() ? null : node.isTextual() ? node.asText() : node.toString();
    }
    if (reason != null && reason.length() > TaskLimits.MAX_CANCEL_REASON_CHARS) {
      return new Mapped.Rejected(
          "reason: is "
              + reason.length()
              + " characters; the limit is "
              + TaskLimits.MAX_CANCEL_REASON_CHARS
              + " (as TaskOutbox.cancel enforces)");
    }
    CancelCommand cancel =
        CancelCommand.of(row.taskId(), reason, row.createdAt())
            .withTask(row.handler(), row.taskKey());
    return new Mapped.Relayed(row.routingKey(), WireCodec.encode(cancel), "cancel");
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
