package io.tasklane.core;

import java.time.Duration;

/**
 * A task's optional wait timeout: how long it may wait, counted from its due time, for its first
 * attempt to be dispatched before the scheduler raises a {@code wait-timeout} alert (the task keeps
 * waiting; nothing is cancelled). It travels as the reserved task header {@value #HEADER} (decimal
 * milliseconds), inside the outbox row's JSON {@code headers} column and the envelope's headers, so
 * older rows, relays and schedulers keep working without a schema change. Stateless.
 */
public final class WaitTimeout {
  /** The reserved header carrying the wait timeout in milliseconds. */
  public static final String HEADER = "tasklane-wait-timeout-ms";

  /** The shortest wait timeout: 1 s. */
  public static final long MIN_MS = Duration.ofSeconds(1).toMillis();

  /** The longest wait timeout: 7 days. */
  public static final long MAX_MS = Duration.ofDays(7).toMillis();

  private WaitTimeout() {}

  /**
   * The wait timeout of {@code task} in milliseconds, or -1 when it has none (or the header is not
   * a number: {@link TaskValidator} refuses such a task before it is written).
   */
  public static long millis(TaskEnvelope task) {
    String v = task.headers().get(HEADER);
    if (v == null) {
      return -1;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Checks a wait timeout given as text (the header's value).
   *
   * @throws InvalidTaskException naming {@code waitTimeout} and its limits
   */
  static void check(String value) {
    long ms;
    try {
      ms = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidTaskException(
          "waitTimeout", "header " + HEADER + " '" + value + "' is not a number of milliseconds");
    }
    check(ms);
  }

  /**
   * Checks a wait timeout in milliseconds.
   *
   * @throws InvalidTaskException naming {@code waitTimeout} and its limits
   */
  public static void check(long ms) {
    if (ms < MIN_MS || ms > MAX_MS) {
      throw new InvalidTaskException(
          "waitTimeout", ms + " ms is outside 1 s to 7 d (" + MIN_MS + " to " + MAX_MS + " ms)");
    }
  }
}
