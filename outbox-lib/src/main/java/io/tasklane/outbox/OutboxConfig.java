package io.tasklane.outbox;

import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.outbox.OutboxBatches;
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
 * @param batchRows most tasks {@code enqueueAll} packs into one outbox row ({@code
 *     tasklane.outbox.batch-rows}), default 1 (a row per task), at most {@value
 *     OutboxBatches#MAX_TASKS}: the relay fans a batch row out to one record per task, so that the
 *     binlog, the change capture and the row parse cost per batch. Needs a relay that knows {@code
 *     BATCH} rows (this version or later): upgrade the relay first
 */
public record OutboxConfig(
    int maxPayloadBytes,
    int defaultMaxAttempts,
    Duration defaultTimeout,
    boolean traceparent,
    int batchRows) {

  public static final int DEFAULT_MAX_PAYLOAD_BYTES = TaskLimits.DEFAULT_MAX_PAYLOAD_BYTES;
  public static final int DEFAULT_MAX_ATTEMPTS = TaskEnvelope.DEFAULT_MAX_ATTEMPTS;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(TaskEnvelope.DEFAULT_TIMEOUT_MS);
  public static final boolean DEFAULT_TRACEPARENT = true;
  public static final int DEFAULT_BATCH_ROWS = 1;

  public static final OutboxConfig DEFAULT =
      new OutboxConfig(
          DEFAULT_MAX_PAYLOAD_BYTES,
          DEFAULT_MAX_ATTEMPTS,
          DEFAULT_TIMEOUT,
          DEFAULT_TRACEPARENT,
          DEFAULT_BATCH_ROWS);

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
    long ms;
    try {
      ms = defaultTimeout.toMillis();
    } catch (ArithmeticException e) {
      ms = Long.MAX_VALUE; // refused below, naming the setting and its range
    }
    if (ms < TaskLimits.MIN_TIMEOUT_MS || ms > TaskLimits.MAX_TIMEOUT_MS) {
      throw new OutboxException(
          "defaultTimeout (tasklane.outbox.default-timeout) is "
              + defaultTimeout
              + "; it must be 1 s to 24 h");
    }
    if (batchRows < 1 || batchRows > OutboxBatches.MAX_TASKS) {
      throw new OutboxException(
          "batchRows (tasklane.outbox.batch-rows) is "
              + batchRows
              + "; it must be 1 to "
              + OutboxBatches.MAX_TASKS
              + " (1: a row per task)");
    }
  }

  /** Settings with a row per task ({@code batchRows} 1). */
  public OutboxConfig(
      int maxPayloadBytes, int defaultMaxAttempts, Duration defaultTimeout, boolean traceparent) {
    this(maxPayloadBytes, defaultMaxAttempts, defaultTimeout, traceparent, DEFAULT_BATCH_ROWS);
  }

  public OutboxConfig withMaxPayloadBytes(int bytes) {
    return new OutboxConfig(bytes, defaultMaxAttempts, defaultTimeout, traceparent, batchRows);
  }

  public OutboxConfig withTraceparent(boolean enabled) {
    return new OutboxConfig(
        maxPayloadBytes, defaultMaxAttempts, defaultTimeout, enabled, batchRows);
  }

  /** These settings with {@code tasks} as the most tasks in one outbox row. */
  public OutboxConfig withBatchRows(int tasks) {
    return new OutboxConfig(
        maxPayloadBytes, defaultMaxAttempts, defaultTimeout, traceparent, tasks);
  }
}
