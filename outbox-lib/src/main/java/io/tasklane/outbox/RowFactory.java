package io.tasklane.outbox;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.HandlerNames;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskValidator;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.outbox.OutboxRows;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Turns requests into validated rows of the {@link OutboxRows} contract. Stateless apart from its
 * settings; thread-safe.
 */
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
    OutboxRow row = OutboxRows.task(envelope, payload);
    // No policy named: the column stays NULL and the reader applies the default.
    return r.backoff() == null ? row.toBuilder().backoff(null).build() : row;
  }

  OutboxRow cancel(String taskId, String handler, String key, String reason) {
    return OutboxRows.cancel(
        CancelCommand.of(taskId, reason, clock.millis()).withTask(handler, key));
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
}
