package io.tasklane.scheduler.internal.lifecycle;

/**
 * How a rate limit spaces its start slots, as {@link RateOwner} grants them: one slot every {@code
 * intervalMicros}, with {@link #grantBurst} {@code - 1} intervals of slack after an idle spell. The
 * rest of the configured burst is kept for the workers' start jitter: a worker may start an attempt
 * up to {@link #toleranceMs} after its slot, and in any second the starts still stay within {@code
 * rate + burst} (slots in a span of one second plus the tolerance number at most {@code rate +
 * grantBurst + tolerance / interval}). Made from the configured {@code
 * io.tasklane.scheduler.RateLimit}. Immutable.
 *
 * @param intervalMicros the time between two slots, 1 µs or more
 * @param burst how many slots may fall on one instant, 1 or more
 */
public record RateSpacing(long intervalMicros, int burst) {
  public RateSpacing {
    if (intervalMicros < 1 || burst < 1) {
      throw new IllegalArgumentException(
          "a rate's interval and burst must be positive: " + intervalMicros + " µs, " + burst);
    }
  }

  /** The most a worker may start an attempt after its slot: at most a second. */
  static final long MAX_TOLERANCE_MS = 1_000;

  /** The slots granted at once after an idle spell: half the burst, rounded up. */
  public int grantBurst() {
    return (burst + 1) / 2;
  }

  /**
   * How late after its slot a worker may still start an attempt: one interval for each slot of the
   * burst kept back, and one more, less a millisecond; at least 1 ms, at most {@link
   * #MAX_TOLERANCE_MS}.
   */
  public long toleranceMs() {
    long kept = burst - grantBurst();
    long us = (kept + 1) * intervalMicros - 1_000;
    return Math.max(1, Math.min(MAX_TOLERANCE_MS, us / 1_000));
  }
}
