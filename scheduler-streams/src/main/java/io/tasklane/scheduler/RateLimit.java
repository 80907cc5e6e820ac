package io.tasklane.scheduler;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rate limit on task starts: at most {@code permits} starts per {@code periodSeconds}, of which
 * up to {@code burst} may start together after an idle spell. Configured as {@code
 * limits.<name>.rate} / {@code .burst} (a limit that several handlers' tasks name) or {@code
 * handlers.<name>.rate} / {@code .burst} (every task of a handler that names no limit). Immutable.
 *
 * <p>Spacing follows the generic cell rate algorithm: slots {@link #intervalMicros()} apart, with
 * {@code burst - 1} intervals of slack, so in any window of one period at most {@code permits +
 * burst - 1} slots are granted (docs/rate-limits.md).
 *
 * @param permits starts per period, 1 to {@link #MAX_PERMITS}
 * @param periodSeconds the period: 1 (per second), 60 (per minute) or 3600 (per hour)
 * @param burst starts that may go together, 1 to {@link #MAX_BURST}
 */
public record RateLimit(long permits, long periodSeconds, int burst) {
  /** The most starts a limit may allow per period. */
  public static final long MAX_PERMITS = 1_000_000;

  /** The largest burst. */
  public static final int MAX_BURST = 100_000;

  private static final Pattern RATE = Pattern.compile("\\s*(\\d{1,7})\\s*/\\s*(s|min|h)\\s*");

  public RateLimit {
    if (permits < 1 || permits > MAX_PERMITS) {
      throw new SchedulerException(
          "rate: " + permits + " starts per period must be from 1 to " + MAX_PERMITS);
    }
    if (periodSeconds != 1 && periodSeconds != 60 && periodSeconds != 3600) {
      throw new SchedulerException("rate: the period must be s, min or h");
    }
    if (burst < 1 || burst > MAX_BURST) {
      throw new SchedulerException("burst: " + burst + " must be from 1 to " + MAX_BURST);
    }
  }

  /**
   * Parses {@code rate} ({@code 50/s}, {@code 600/min}, {@code 1000/h}) and {@code burst} (null:
   * 1).
   *
   * @throws SchedulerException naming {@code rate} or {@code burst} and the form expected
   */
  public static RateLimit parse(String rate, Integer burst) {
    Matcher m = rate == null ? null : RATE.matcher(rate.toLowerCase(Locale.ROOT));
    if (m == null || !m.matches()) {
      throw new SchedulerException(
          "rate: '" + rate + "' must read <starts>/s, <starts>/min or <starts>/h, e.g. 50/s");
    }
    long period =
        switch (m.group(2)) {
          case "s" -> 1;
          case "min" -> 60;
          default -> 3600;
        };
    return new RateLimit(Long.parseLong(m.group(1)), period, burst == null ? 1 : burst);
  }

  /** The time between two slots, in microseconds (at least 1). */
  public long intervalMicros() {
    return Math.max(1, periodSeconds * 1_000_000L / permits);
  }

  /** The rate as configured, e.g. {@code 50/s}. */
  public String rate() {
    return permits + (periodSeconds == 1 ? "/s" : periodSeconds == 60 ? "/min" : "/h");
  }
}
