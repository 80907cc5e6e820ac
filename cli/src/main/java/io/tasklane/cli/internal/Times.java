package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.DurationText;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * Times on the command line and in tables. A time flag takes an ISO-8601 instant ({@code
 * 2026-11-23T08:00:00Z}) or a duration back from now ({@code 90s}, {@code 15m}, {@code 1h}, {@code
 * 2d}); tables print epoch millis as ISO-8601 UTC to the second. Pure but for the {@link Clock}.
 */
public final class Times {
  private Times() {}

  /**
   * The epoch millis of {@code text} for flag {@code flag}, or null when {@code text} is null.
   *
   * @throws UsageException naming the flag and the accepted forms
   */
  public static Long parse(String flag, String text, Clock clock) {
    if (text == null) {
      return null;
    }
    String t = text.strip();
    long ago;
    try {
      ago = DurationText.millis(t);
    } catch (ArithmeticException e) {
      ago = -1;
    }
    if (ago >= 0) {
      return clock.millis() - ago;
    }
    try {
      return Instant.parse(t).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new UsageException(
          flag
              + " '"
              + text
              + "' is neither an ISO-8601 instant (2026-11-23T08:00:00Z) nor a duration back"
              + " from now (90s, 15m, 1h, 2d)");
    }
  }

  /** {@code millis} as ISO-8601 UTC to the second; "-" for 0 or less (not set). */
  public static String iso(long millis) {
    return millis <= 0
        ? "-"
        : Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** The time field {@code field} of {@code node} as {@link #iso(long)}; "-" when missing. */
  public static String iso(JsonNode node, String field) {
    JsonNode v = node.path(field);
    return v.isNumber() ? iso(v.asLong()) : "-";
  }
}
