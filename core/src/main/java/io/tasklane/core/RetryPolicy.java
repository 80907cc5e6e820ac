package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * How long a task waits before its next attempt after a failed one. Travels on the wire as the
 * envelope's {@code backoff} field, {@code {"kind": "sidekiq" | "exponential" | "fixed", ...}}.
 * Every policy adds jitter so that a burst of failures does not retry in lock-step.
 *
 * <pre>{@code
 * RetryPolicy.sidekiq();                                     // the default
 * RetryPolicy.fixed(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(20));
 * RetryPolicy.exponential(Duration.ofSeconds(1), Duration.ofMinutes(10));
 * }</pre>
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
  @JsonSubTypes.Type(value = RetryPolicy.Sidekiq.class, name = "sidekiq"),
  @JsonSubTypes.Type(value = RetryPolicy.Exponential.class, name = "exponential"),
  @JsonSubTypes.Type(value = RetryPolicy.Fixed.class, name = "fixed")
})
public sealed interface RetryPolicy
    permits RetryPolicy.Sidekiq, RetryPolicy.Exponential, RetryPolicy.Fixed {

  /** The longest delay any policy may produce: 30 days. */
  long MAX_DELAY_MS = Duration.ofDays(30).toMillis();

  /**
   * The delay before the next attempt.
   *
   * @param failedAttempt the 1-based number of the attempt that just failed
   * @param random the source of jitter (inject a seeded one in tests)
   */
  long delayMs(int failedAttempt, RandomGenerator random);

  /** Sidekiq's formula {@code attempt^4 + 15 + rand(30)·(attempt+1)} seconds, capped at 7 days. */
  static RetryPolicy sidekiq() {
    return new Sidekiq(Duration.ofDays(7).toMillis());
  }

  /** A fixed list of delays; attempts beyond the list reuse its last delay. ±10% jitter. */
  static RetryPolicy fixed(Duration... delays) {
    return new Fixed(
        Arrays.stream(delays).map(d -> DurationText.millis("backoff.delaysMs", d)).toList());
  }

  /** {@code base·2^(attempt-1)}, capped at {@code max}, with ±25% jitter. */
  static RetryPolicy exponential(Duration base, Duration max) {
    return new Exponential(
        DurationText.millis("backoff.baseMs", base),
        DurationText.millis("backoff.maxDelayMs", max));
  }

  /** Sidekiq's retry formula. */
  record Sidekiq(long maxDelayMs) implements RetryPolicy {
    public Sidekiq {
      checkDelay("backoff.maxDelayMs", maxDelayMs);
    }

    @Override
    public long delayMs(int failedAttempt, RandomGenerator random) {
      long a = Math.max(1, failedAttempt);
      double seconds = Math.pow(a, 4) + 15 + random.nextInt(30) * (a + 1);
      return (long) Math.min(maxDelayMs, seconds * 1000);
    }
  }

  /** Exponential backoff with jitter. */
  record Exponential(long baseMs, long maxDelayMs) implements RetryPolicy {
    public Exponential {
      checkDelay("backoff.baseMs", baseMs);
      checkDelay("backoff.maxDelayMs", maxDelayMs);
    }

    @Override
    public long delayMs(int failedAttempt, RandomGenerator random) {
      int shift = Math.min(40, Math.max(0, failedAttempt - 1));
      double raw = Math.min((double) maxDelayMs, baseMs * Math.pow(2, shift));
      return (long) Math.min(maxDelayMs, raw * (0.75 + 0.5 * random.nextDouble()));
    }
  }

  /** A fixed list of delays, e.g. 1 min, 5 min, 20 min as in the requirements. */
  record Fixed(List<Long> delaysMs) implements RetryPolicy {
    public Fixed {
      if (delaysMs == null || delaysMs.isEmpty() || delaysMs.size() > 100) {
        throw new InvalidTaskException("backoff.delaysMs", "must list 1 to 100 delays");
      }
      delaysMs = List.copyOf(delaysMs);
      delaysMs.forEach(d -> checkDelay("backoff.delaysMs", d));
    }

    @Override
    public long delayMs(int failedAttempt, RandomGenerator random) {
      long base = delaysMs.get(Math.min(delaysMs.size(), Math.max(1, failedAttempt)) - 1);
      return (long) (base * (0.9 + 0.2 * random.nextDouble()));
    }
  }

  private static void checkDelay(String field, long ms) {
    if (ms <= 0 || ms > MAX_DELAY_MS) {
      throw new InvalidTaskException(
          field, ms + " ms is outside 1 ms to " + MAX_DELAY_MS + " ms (30 days)");
    }
  }
}
