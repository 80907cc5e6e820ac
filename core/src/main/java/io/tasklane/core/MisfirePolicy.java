package io.tasklane.core;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a recurring schedule does with fire instants that passed while nothing could fire them (the
 * scheduler was down or behind). On the wire as text: {@code SKIP}, {@code FIRE_ONCE}, {@code
 * FIRE_ONCE_IF_LATE_BY_AT_MOST(5s)} (the default) or {@code FIRE_ALL(max 10)}.
 *
 * @param kind the policy
 * @param lateByMs for {@link Kind#FIRE_ONCE_IF_LATE_BY_AT_MOST}: the largest lateness that still
 *     fires; 0 otherwise
 * @param max for {@link Kind#FIRE_ALL}: the most fires made up at once; 0 otherwise
 */
public record MisfirePolicy(Kind kind, long lateByMs, int max) {
  /** The largest {@code lateByMs}: one day. */
  public static final long MAX_LATE_BY_MS = 86_400_000L;

  /** The largest {@code max} of {@code FIRE_ALL}. */
  public static final int MAX_FIRE_ALL = 1_000;

  /** {@code FIRE_ONCE_IF_LATE_BY_AT_MOST(5s)}. */
  public static final MisfirePolicy DEFAULT =
      new MisfirePolicy(Kind.FIRE_ONCE_IF_LATE_BY_AT_MOST, 5_000, 0);

  private static final Pattern LATE = Pattern.compile("FIRE_ONCE_IF_LATE_BY_AT_MOST\\((.+)\\)");
  private static final Pattern ALL = Pattern.compile("FIRE_ALL\\((?:max\\s+)?(\\d{1,9})\\)");

  /** The policies. */
  public enum Kind {
    /** Missed fires are skipped: only a fire found on time (within the scheduler's tick) runs. */
    SKIP,
    /** The latest missed fire runs once, however late. */
    FIRE_ONCE,
    /** The latest missed fire runs once if it is late by at most {@code lateByMs}, else skipped. */
    FIRE_ONCE_IF_LATE_BY_AT_MOST,
    /** Every missed fire runs, at most the {@code max} latest of them. */
    FIRE_ALL
  }

  /**
   * Parses the wire text; {@code null} is {@link #DEFAULT}.
   *
   * @throws InvalidTaskException naming field {@code misfire} and the accepted forms and limits
   */
  public static MisfirePolicy parse(String text) {
    if (text == null) {
      return DEFAULT;
    }
    String t = text.trim();
    if (t.equals("SKIP")) {
      return new MisfirePolicy(Kind.SKIP, 0, 0);
    }
    if (t.equals("FIRE_ONCE")) {
      return new MisfirePolicy(Kind.FIRE_ONCE, 0, 0);
    }
    Matcher late = LATE.matcher(t);
    if (late.matches()) {
      long ms = DurationText.parse("misfire", late.group(1));
      if (ms > MAX_LATE_BY_MS) {
        throw new InvalidTaskException(
            "misfire", "late-by " + ms + " ms is more than the limit of 1 day (86400000 ms)");
      }
      return new MisfirePolicy(Kind.FIRE_ONCE_IF_LATE_BY_AT_MOST, ms, 0);
    }
    Matcher all = ALL.matcher(t);
    if (all.matches()) {
      int max = Integer.parseInt(all.group(1));
      if (max < 1 || max > MAX_FIRE_ALL) {
        throw new InvalidTaskException(
            "misfire", "FIRE_ALL max " + max + " is outside 1 to " + MAX_FIRE_ALL);
      }
      return new MisfirePolicy(Kind.FIRE_ALL, 0, max);
    }
    throw new InvalidTaskException(
        "misfire",
        "'"
            + HandlerNames.abbreviate(text)
            + "' is not one of SKIP, FIRE_ONCE, FIRE_ONCE_IF_LATE_BY_AT_MOST(<duration>),"
            + " FIRE_ALL(max <n>)");
  }

  /** The wire text. */
  @Override
  public String toString() {
    return switch (kind) {
      case SKIP, FIRE_ONCE -> kind.name();
      case FIRE_ONCE_IF_LATE_BY_AT_MOST -> kind.name() + "(" + lateByMs + "ms)";
      case FIRE_ALL -> "FIRE_ALL(max " + max + ")";
    };
  }
}
