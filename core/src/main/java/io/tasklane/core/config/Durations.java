package io.tasklane.core.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way Tasklane settings write a duration: a whole number and a unit, {@code 500ms}, {@code
 * 30s}, {@code 5m}, {@code 1h}, {@code 7d}, or ISO-8601 ({@code PT30S}, {@code P7D}). A bare number
 * is refused: it does not say its unit.
 */
public final class Durations {
  /** The accepted forms, as error messages name them. */
  public static final String FORMS =
      "a number and a unit (500ms, 30s, 5m, 1h, 7d) or ISO-8601 (PT30S)";

  private static final Pattern SIMPLE = Pattern.compile("(\\d{1,18})\\s*(ms|s|m|h|d)");

  private Durations() {}

  /**
   * Parses {@code text} as the value of {@code key}.
   *
   * @throws ConfigException naming {@code key} and the accepted forms when {@code text} is none
   */
  public static Duration parse(String key, String text) {
    String t = text == null ? "" : text.trim().replace("_", "");
    Matcher m = SIMPLE.matcher(t.toLowerCase(Locale.ROOT));
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      try {
        return switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          default -> Duration.ofDays(n);
        };
      } catch (ArithmeticException e) {
        throw new ConfigException(key, "'" + text + "' is too long a duration");
      }
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
