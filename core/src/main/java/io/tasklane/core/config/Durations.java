package io.tasklane.core.config;

import io.tasklane.core.DurationText;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * The one way Tasklane settings write a duration: a whole number and a unit, {@code 500ms}, {@code
 * 30s}, {@code 5m}, {@code 1h}, {@code 7d}, or ISO-8601 ({@code PT30S}, {@code P7D}). A bare number
 * is refused: it does not say its unit.
 */
public final class Durations {
  /** The accepted forms, as error messages name them. */
  public static final String FORMS =
      "a number and a unit (500ms, 30s, 5m, 1h, 7d) or ISO-8601 (PT30S)";

  private Durations() {}

  /**
   * Parses {@code text} as the value of {@code key}.
   *
   * @throws ConfigException naming {@code key} and the accepted forms when {@code text} is none
   */
  public static Duration parse(String key, String text) {
    String t = text == null ? "" : text.trim().replace("_", "");
    try {
      long ms = DurationText.millis(t);
      if (ms >= 0) {
        return Duration.ofMillis(ms);
      }
    } catch (ArithmeticException e) {
      throw new ConfigException(key, "'" + text + "' is too long a duration");
    }
    if (t.length() > 1 && (t.charAt(0) == 'P' || t.charAt(0) == 'p')) {
      try {
        return Duration.parse(t.toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        // fall through to the message below
      }
    }
    throw new ConfigException(key, "'" + text + "' is not a duration: write " + FORMS);
  }

  /**
   * {@code d} the way settings write it: the largest unit that divides it ({@code 90s}, {@code
   * 7d}).
   */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms != 0 && ms % 86_400_000L == 0) {
      return ms / 86_400_000L + "d";
    }
    if (ms != 0 && ms % 3_600_000L == 0) {
      return ms / 3_600_000L + "h";
    }
    if (ms != 0 && ms % 60_000L == 0) {
      return ms / 60_000L + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }
}
