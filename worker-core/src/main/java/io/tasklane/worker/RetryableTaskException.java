package io.tasklane.worker;

import java.time.Duration;

/**
 * Thrown by a handler to run the task again later (outcome RETRY_LATER, a snooze that does not use
 * up an attempt). {@code retryAfter} is the delay the scheduler should wait; null lets the
 * scheduler choose from the task's backoff policy.
 */
public class RetryableTaskException extends WorkerException {
  private static final long serialVersionUID = 1L;

  private final transient Duration retryAfter;

  public RetryableTaskException(String message, Duration retryAfter) {
    this(message, retryAfter, null);
  }

  public RetryableTaskException(String message, Duration retryAfter, Throwable cause) {
    super(message, cause);
    if (retryAfter != null && retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter must not be negative: " + retryAfter);
    }
    this.retryAfter = retryAfter;
  }

  /** The requested delay, or null. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
