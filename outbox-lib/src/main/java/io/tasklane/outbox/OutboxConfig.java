package io.tasklane.outbox;

import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link TaskOutbox}. Validated on construction: an error names the field, its
 * Micronaut configuration key and the limit.
 *
 * @param maxPayloadBytes largest encoded payload accepted ({@code
 *     tasklane.outbox.max-payload-bytes}), default 256 KiB, at most 1 MiB
 * @param defaultMaxAttempts attempts of a task that does not set its own ({@code
 *     tasklane.outbox.default-max-attempts}), default 25, 1 to 1000
 * @param defaultTimeout execution timeout of a task that does not set its own ({@code
 *     tasklane.outbox.default-timeout}), default 5 minutes, 1 s to 24 h
 * @param traceparent copy the current OpenTelemetry span's W3C {@code traceparent} into the task
 *     headers when OpenTelemetry is on the classpath ({@code tasklane.outbox.traceparent}), default
 *     true
 */
public record OutboxConfig(
    int maxPayloadBytes, int defaultMaxAttempts, Duration defaultTimeout, boolean traceparent) {

  public static final int DEFAULT_MAX_PAYLOAD_BYTES = TaskLimits.DEFAULT_MAX_PAYLOAD_BYTES;
  public static final int DEFAULT_MAX_ATTEMPTS = TaskEnvelope.DEFAULT_MAX_ATTEMPTS;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(TaskEnvelope.DEFAULT_TIMEOUT_MS);
  public static final boolean DEFAULT_TRACEPARENT = true;

  public static final OutboxConfig DEFAULT =
      new OutboxConfig(
          DEFAULT_MAX_PAYLOAD_BYTES, DEFAULT_MAX_ATTEMPTS, DEFAULT_TIMEOUT, DEFAULT_TRACEPARENT);

  public OutboxConfig {
    Objects.requireNonNull(defaultTimeout, "defaultTimeout");
    if (maxPayloadBytes < 1 || maxPayloadBytes > TaskLimits.HARD_MAX_PAYLOAD_BYTES) {
      throw new OutboxException(
          "maxPayloadBytes (tasklane.outbox.max-payload-bytes) is "
              + maxPayloadBytes
              + "; it must be 1 to "
              + TaskLimits.HARD_MAX_PAYLOAD_BYTES
              + " bytes (1 MiB)");
    }
    if (defaultMaxAttempts < TaskLimits.MIN_ATTEMPTS
        || defaultMaxAttempts > TaskLimits.MAX_ATTEMPTS) {
      throw new OutboxException(
          "defaultMaxAttempts (tasklane.outbox.default-max-attempts) is "
              + defaultMaxAttempts
              + "; it must be 1 to "
              + TaskLimits.MAX_ATTEMPTS);
    }
    long ms = defaultTimeout.toMillis();
    if (ms < TaskLimits.MIN_TIMEOUT_MS || ms > TaskLimits.MAX_TIMEOUT_MS) {
      throw new OutboxException(
          "defaultTimeout (tasklane.outbox.default-timeout) is "
              + defaultTimeout
              + "; it must be 1 s to 24 h");
    }
  }

  public OutboxConfig withMaxPayloadBytes(int bytes) {
    return new OutboxConfig(bytes, defaultMaxAttempts, defaultTimeout, traceparent);
  }

  public OutboxConfig withTraceparent(boolean enabled) {
    return new OutboxConfig(maxPayloadBytes, defaultMaxAttempts, defaultTimeout, enabled);
  }
}
