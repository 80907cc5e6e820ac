package io.tasklane.core;

import java.time.Duration;

/**
 * Validation limits of tasks. Only the payload limit is configurable (up to {@link
 * #HARD_MAX_PAYLOAD_BYTES}); the rest are fixed by the contract.
 *
 * @param maxPayloadBytes largest encoded payload accepted, default 256 KiB, at most 1 MiB
 */
public record TaskLimits(int maxPayloadBytes) {
  public static final int DEFAULT_MAX_PAYLOAD_BYTES = 256 * 1024;
  public static final int HARD_MAX_PAYLOAD_BYTES = 1024 * 1024;
  public static final int MIN_ATTEMPTS = 1;
  public static final int MAX_ATTEMPTS = 1000;
  public static final long MIN_TIMEOUT_MS = Duration.ofSeconds(1).toMillis();
  public static final long MAX_TIMEOUT_MS = Duration.ofHours(24).toMillis();
  public static final long MAX_DUE_AHEAD_MS = Duration.ofDays(3653).toMillis();
  public static final int MAX_DEPENDENCIES = 100;
  public static final int MAX_KEY_CHARS = 255;
  public static final int MAX_HEADERS = 32;
  public static final int MAX_HEADER_VALUE_CHARS = 1024;
  public static final int MAX_HEADER_NAME_CHARS = 128;

  /** Longest cancel reason, in characters (the outbox refuses longer, the relay dead-letters). */
  public static final int MAX_CANCEL_REASON_CHARS = 1000;

  /**
   * Room for every field of an encoded task record other than the payload: ids, handler, keys, 100
   * dependencies, 32 headers with names of 128 and values of 1024 characters even when JSON escapes
   * them, backoff, source.
   */
  public static final int MAX_ENVELOPE_OVERHEAD_BYTES = 256 * 1024;

  /**
   * Largest task record (key plus encoded value) Tasklane writes to a topic: the 1 MiB payload hard
   * cap plus {@link #MAX_ENVELOPE_OVERHEAD_BYTES}. {@link TopicAdmin#MAX_MESSAGE_BYTES} leaves room
   * above it for Kafka's batch framing and the scheduler's dispatch wrapper.
   */
  public static final int MAX_RECORD_BYTES = HARD_MAX_PAYLOAD_BYTES + MAX_ENVELOPE_OVERHEAD_BYTES;

  public static final TaskLimits DEFAULT = new TaskLimits(DEFAULT_MAX_PAYLOAD_BYTES);

  public TaskLimits {
    if (maxPayloadBytes < 1 || maxPayloadBytes > HARD_MAX_PAYLOAD_BYTES) {
      throw new InvalidTaskException(
          "maxPayloadBytes",
          maxPayloadBytes + " is outside 1 to " + HARD_MAX_PAYLOAD_BYTES + " bytes (1 MiB)");
    }
  }
}
