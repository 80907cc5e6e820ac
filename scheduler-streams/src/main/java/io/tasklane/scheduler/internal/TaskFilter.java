package io.tasklane.scheduler.internal;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.HandlerNames;
import io.tasklane.core.TaskState;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which tasks a search or a bulk action is about: the filter keys of {@code GET /api/tasks} and of
 * a bulk body's {@code "filter"}. Every key is optional; given keys must all match. Times are epoch
 * millis or ISO-8601 instants, ranges inclusive. Immutable; built by {@link #parse}, which refuses
 * an unknown key or a value out of its limits with a {@link BadQueryException} naming it.
 *
 * @param raw the given keys and values as they came (forwarded to other instances, echoed by jobs)
 * @param states the states, or null for all
 * @param handlers the handlers, or null for all
 * @param payloadPointer the JSON pointer of {@code payload=<pointer>=<value>}, or null
 * @param payloadValue the value the payload's node must equal (as text), or null
 */
record TaskFilter(
    Map<String, String> raw,
    Set<TaskState> states,
    Set<String> handlers,
    String key,
    String idPrefix,
    String errorType,
    long createdFrom,
    long createdTo,
    long updatedFrom,
    long updatedTo,
    long dueFrom,
    long dueTo,
    JsonPointer payloadPointer,
    String payloadValue) {

  /** The filter keys, in the order they are documented. */
  static final List<String> KEYS =
      List.of(
          "state",
          "handler",
          "key",
          "idPrefix",
          "errorType",
          "createdFrom",
          "createdTo",
          "updatedFrom",
          "updatedTo",
          "dueFrom",
          "dueTo",
          "payload");

  private static final int MAX_TEXT = 500;
  private static final int MAX_HANDLERS = 100;

  TaskFilter {
    raw = Map.copyOf(raw);
  }

  /** Parses the filter keys of {@code params}; other keys are the caller's to check. */
  static TaskFilter parse(Map<String, String> params) {
    Map<String, String> raw = new LinkedHashMap<>();
    for (String k : KEYS) {
      String v = params.get(k);
      if (v != null && !v.isEmpty()) {
        raw.put(k, v);
      }
    }
    String payload = raw.get("payload");
    JsonPointer pointer = null;
    String value = null;
    if (payload != null) {
      int eq = payload.indexOf('=');
      if (!payload.startsWith("/") || eq < 0 || payload.length() > MAX_TEXT) {
        throw new BadQueryException(
            "payload",
            "must be <JSON pointer>=<value>, e.g. /customer/id=42, at most " + MAX_TEXT + " chars");
      }
      try {
        pointer = JsonPointer.compile(payload.substring(0, eq));
      } catch (IllegalArgumentException e) {
        throw new BadQueryException("payload", "not a JSON pointer: " + e.getMessage());
      }
      value = payload.substring(eq + 1);
    }
    return new TaskFilter(
        raw,
        states(raw.get("state")),
        handlers(raw.get("handler")),
        text(raw, "key"),
        idPrefix(raw.get("idPrefix")),
        text(raw, "errorType"),
        time(raw, "createdFrom", Long.MIN_VALUE),
        time(raw, "createdTo", Long.MAX_VALUE),
        time(raw, "updatedFrom", Long.MIN_VALUE),
        time(raw, "updatedTo", Long.MAX_VALUE),
        time(raw, "dueFrom", Long.MIN_VALUE),
        time(raw, "dueTo", Long.MAX_VALUE),
        pointer,
        value);
  }

  /** True when the filter needs more than the index entry: the record must be read. */
  boolean needsRecord() {
    return key != null
        || errorType != null
        || dueFrom != Long.MIN_VALUE
        || dueTo != Long.MAX_VALUE
        || payloadPointer != null;
  }

  /** The checks of the index entry's parts: id and creation time. */
  boolean matchesEntry(String id, long createdAt) {
    return (idPrefix == null || id.startsWith(idPrefix))
        && createdAt >= createdFrom
        && createdAt <= createdTo;
  }

  /** The checks only the record can answer (key, error type, due time, payload). */
  boolean matchesRecord(TaskRecord r) {
    if (key != null && !key.equals(r.task().key())) {
      return false;
    }
    if (errorType != null && (r.lastError() == null || !errorType.equals(r.lastError().type()))) {
      return false;
    }
    if (r.dueAt() < dueFrom || r.dueAt() > dueTo) {
      return false;
    }
    if (payloadPointer != null) {
      JsonNode n = r.task().payload().at(payloadPointer);
      return n.isValueNode() && n.asText().equals(payloadValue);
    }
    return true;
  }

  private static Set<TaskState> states(String v) {
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

  private static Set<String> handlers(String v) {
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
    if (out.size() > MAX_HANDLERS) {
      throw new BadQueryException("handler", "at most " + MAX_HANDLERS + " handlers");
    }
    return out;
  }

  private static String idPrefix(String v) {
    if (v != null && !v.matches("[0-9a-f-]{1,36}")) {
      throw new BadQueryException(
          "idPrefix", "must be 1 to 36 characters of a lower-case task id ([0-9a-f-])");
    }
    return v;
  }

  private static String text(Map<String, String> raw, String k) {
    String v = raw.get(k);
    if (v != null && v.length() > MAX_TEXT) {
      throw new BadQueryException(k, "at most " + MAX_TEXT + " characters");
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

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "…";
  }
}
