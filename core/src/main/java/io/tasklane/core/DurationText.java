package io.tasklane.core;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The short duration form used in records and settings alike: a whole number and a unit, {@code
 * 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d}. Settings also accept ISO-8601 ({@code
 * io.tasklane.core.config.Durations}). Stateless; any thread.
 */
public final class DurationText {
  private static final Pattern DURATION = Pattern.compile("(\\d{1,18})\\s*(ms|s|m|h|d)");

  private DurationText() {}

  /** The milliseconds of {@code text}; throws {@link InvalidTaskException} naming {@code field}. */
  public static long parse(String field, String text) {
    long ms;
    try {
      ms = millis(text);
    } catch (ArithmeticException e) {
      throw new InvalidTaskException(field, "'" + text + "' is too long a duration");
    }
    if (ms < 0) {
      throw new InvalidTaskException(
          field,
          "'"
              + (text == null ? "null" : HandlerNames.abbreviate(text))
              + "' is not a duration such as 500ms, 30s, 5m, 2h or 1d");
    }
    return ms;
  }

  /**
   * The milliseconds of {@code value}; a {@code null} or a duration beyond a {@code long} of
   * milliseconds (about 292 million years) throws {@link InvalidTaskException} naming {@code
   * field}, so a huge {@code Duration} is a clear error instead of an {@link ArithmeticException}.
   */
  public static long millis(String field, java.time.Duration value) {
    if (value == null) {
      throw new InvalidTaskException(field, "is missing");
    }
    try {
      return value.toMillis();
    } catch (ArithmeticException e) {
      throw new InvalidTaskException(
          field, value.getSeconds() + " s does not fit in a long of milliseconds");
    }
  }

  /**
   * The milliseconds of {@code text} in the short form, or -1 when it is not in that form.
   *
   * @throws ArithmeticException when the duration does not fit in a {@code long} of milliseconds
   */
  public static long millis(String text) {
    Matcher m = text == null ? null : DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (m == null || !m.matches()) {
      return -1;
    }
    long unit =
        switch (m.group(2)) {
          case "ms" -> 1L;
          case "s" -> 1_000L;
          case "m" -> 60_000L;
          case "h" -> 3_600_000L;
          default -> 86_400_000L;
        };
    return Math.multiplyExact(Long.parseLong(m.group(1)), unit);
  }
}
