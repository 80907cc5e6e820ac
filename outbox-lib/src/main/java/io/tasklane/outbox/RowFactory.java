package io.tasklane.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.tasklane.core.HandlerNames;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskValidator;
import io.tasklane.core.WireCodec;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/** Turns requests into validated rows. Stateless apart from its settings; thread-safe. */
final class RowFactory {
  private final OutboxConfig config;
  private final PayloadCodec codec;
  private final Clock clock;
  private final TraceHeaders trace;
  private final TaskValidator validator;

  RowFactory(OutboxConfig config, PayloadCodec codec, Clock clock, TraceHeaders trace) {
    this.config = config;
    this.codec = codec;
    this.clock = clock;
    this.trace = trace;
    this.validator = new TaskValidator(new TaskLimits(config.maxPayloadBytes()));
  }

  OutboxRow task(TaskRequest r) {
    HandlerNames.check(r.handler());
    if (r.dependsOn().stream().anyMatch(Objects::isNull)) {
      throw new InvalidTaskException("dependsOn", "contains null; name task ids only");
    }
    long now = clock.millis();
    String id = r.key() == null ? TaskIds.keyless(clock) : TaskIds.forKey(r.handler(), r.key());
    String payload = encodePayload(r.payload());
    int attempts = r.maxAttempts() != null ? r.maxAttempts() : config.defaultMaxAttempts();
    long timeoutMs =
        r.timeout() != null ? millis("timeoutMs", r.timeout()) : config.defaultTimeout().toMillis();
    Map<String, String> headers = trace.enrich(r.headers());
    var envelope =
        TaskEnvelope.builder()
            .id(id)
            .handler(r.handler())
            .key(r.key())
            .orderingKey(r.orderingKey())
            .dueAt(dueAt(r, now))
            .maxAttempts(attempts)
            .timeoutMs(timeoutMs)
            .backoff(r.backoff())
            .dependsOn(r.dependsOn())
            .headers(headers)
            .createdAt(now)
            .build();
    validator.validate(envelope, payload.getBytes(StandardCharsets.UTF_8).length, now);
    return new OutboxRow(
        id,
        envelope.routingKey(),
        OutboxRow.TASK,
        r.handler(),
        r.key(),
        payload,
        envelope.dueAt(),
        attempts,
        timeoutMs,
        r.backoff() == null ? null : json("backoff", r.backoff(), RetryPolicy.class),
        r.dependsOn().isEmpty() ? null : json("dependsOn", r.dependsOn(), Object.class),
        headers.isEmpty() ? null : json("headers", headers, Object.class),
        now);
  }

  OutboxRow cancel(String taskId, String handler, String key, String reason) {
    String payload = reason == null ? null : json("reason", reason, String.class);
    return new OutboxRow(
        taskId,
        taskId,
        OutboxRow.CANCEL,
        handler,
        key,
        payload,
        0,
        0,
        0,
        null,
        null,
        null,
        clock.millis());
  }

  private String encodePayload(Object payload) {
    String json;
    try {
      json = codec.encode(payload);
    } catch (Exception | StackOverflowError e) {
      throw new InvalidTaskException(
          "payload",
          "cannot be encoded as JSON ("
              + (payload == null ? "null" : payload.getClass().getName())
              + "): "
              + e);
    }
    if (json == null) {
      throw new InvalidTaskException("payload", "the codec returned null instead of JSON text");
    }
    return json;
  }

  private static long dueAt(TaskRequest r, long now) {
    try {
      if (r.dueAt() != null) {
        return r.dueAt().toEpochMilli();
      }
      return r.delay() == null ? now : Math.addExact(now, r.delay().toMillis());
    } catch (ArithmeticException e) {
      throw new InvalidTaskException("dueAt", "is out of range (limit: 10 years ahead)");
    }
  }

  private static long millis(String field, Duration d) {
    try {
      return d.toMillis();
    } catch (ArithmeticException e) {
      throw new InvalidTaskException(field, d + " is out of range");
    }
  }

  private static String json(String field, Object value, Class<?> type) {
    try {
      return WireCodec.mapper().writerFor(type).writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new InvalidTaskException(field, "cannot be encoded as JSON: " + e.getOriginalMessage());
    }
  }
}
