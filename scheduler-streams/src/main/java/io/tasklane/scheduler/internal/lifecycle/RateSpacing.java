package io.tasklane.scheduler.internal.lifecycle;

/**
 * How a rate limit spaces its start slots, as {@link RateOwner} grants them: one slot every {@code
 * intervalMicros}, with {@code burst - 1} intervals of slack after an idle spell. Made from the
 * configured {@code io.tasklane.scheduler.RateLimit}. Immutable.
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
}
