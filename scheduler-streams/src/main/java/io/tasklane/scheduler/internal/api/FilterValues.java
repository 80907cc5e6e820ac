package io.tasklane.scheduler.internal.api;

import io.tasklane.core.HandlerNames;
import io.tasklane.core.TaskState;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The values of a task filter's fields, each parsed and checked, a refusal naming the field and its
 * limit.
 */
final class FilterValues {
  private FilterValues() {}

  static Set<TaskState> states(String v) {
    if (v == null) {
      return null;
    }
    Set<TaskState> out = EnumSet.noneOf(TaskState.class);
    for (String s : v.split(",")) {
      try {
        out.add(TaskState.valueOf(s.trim().toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new BadQueryException(
            "state",
            "'" + abbreviate(s) + "' is not one of " + Arrays.toString(TaskState.values()));
      }
    }
    return out;
  }

  static Set<String> handlers(String v) {
    if (v == null) {
      return null;
    }
    Set<String> out = new TreeSet<>();
    for (String h : v.split(",")) {
      if (!HandlerNames.PATTERN.matcher(h.trim()).matches()) {
        throw new BadQueryException(
            "handler", "'" + abbreviate(h) + "' is not a handler name " + HandlerNames.PATTERN);
      }
      out.add(h.trim());
    }
    if (out.size() > TaskFilter.MAX_HANDLERS) {
      throw new BadQueryException("handler", "at most " + TaskFilter.MAX_HANDLERS + " handlers");
    }
    return out;
  }

  static String idPrefix(String v) {
    if (v != null && !v.matches("[0-9a-f-]{1,36}")) {
      throw new BadQueryException(
          "idPrefix", "must be 1 to 36 characters of a lower-case task id ([0-9a-f-])");
    }
    return v;
  }

  static String text(Map<String, String> raw, String k) {
    String v = raw.get(k);
    if (v != null && v.length() > TaskFilter.MAX_TEXT) {
      throw new BadQueryException(k, "at most " + TaskFilter.MAX_TEXT + " characters");
    }
    return v;
  }

  /** Epoch millis or an ISO-8601 instant ({@code 2026-01-01T00:00:00Z}). */
  static long time(Map<String, String> raw, String k, long absent) {
    String v = raw.get(k);
    if (v == null) {
      return absent;
    }
    try {
      return v.chars().allMatch(Character::isDigit) && v.length() <= 15
          ? Long.parseLong(v)
          : Instant.parse(v).toEpochMilli();
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new BadQueryException(
          k, "'" + abbreviate(v) + "' is neither epoch millis nor an ISO-8601 instant");
    }
  }

  static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "…";
  }
}
