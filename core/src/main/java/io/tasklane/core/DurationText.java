package io.tasklane.core;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d}. */
public final class DurationText {
  private static final Pattern DURATION = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h|d)");

  private DurationText() {}

  /** The milliseconds of {@code text}; throws {@link InvalidTaskException} naming {@code field}. */
  public static long parse(String field, String text) {
    Matcher m = text == null ? null : DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (m == null || !m.matches()) {
      throw new InvalidTaskException(
          field,
          "'"
              + (text == null ? "null" : HandlerNames.abbreviate(text))
              + "' is not a duration such as 500ms, 30s, 5m, 2h or 1d");
    }
    long n = Long.parseLong(m.group(1));
    long unit =
        switch (m.group(2)) {
          case "ms" -> 1L;
          case "s" -> 1_000L;
          case "m" -> 60_000L;
          case "h" -> 3_600_000L;
          default -> 86_400_000L;
        };
    if (n > Long.MAX_VALUE / unit / 2) {
      throw new InvalidTaskException(field, "'" + text + "' is too long a duration");
    }
    return n * unit;
  }
}
