package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload part of a {@link TaskFilter}: one field path (a JSON pointer) and the scalar value,
 * as text, the payload's value there must equal. Made only by {@link #parse} from {@code
 * <pointer>=<value>}; immutable. Its value is the caller's guess at a payload value, so it is never
 * shown back: {@link #masked} is what job views and audit records carry.
 *
 * @param field the payload field, a JSON pointer
 * @param value the text the field's value must equal
 */
record PayloadFilter(JsonPointer field, String value) {
  /** The one shape a payload filter has, as every refusal of another shape says. */
  static final String RULE =
      "must be one \"<JSON pointer>=<value>\" (a flat field path and a scalar value, e.g."
          + " /customer/id=42); arrays and objects are refused";

  static final int MAX_TEXT = 500;

  /**
   * Parses {@code <pointer>=<value>} (split at the first {@code =}); a {@link BadQueryException}
   * named {@code payload} for any other shape, including text that is a JSON object or array.
   */
  static PayloadFilter parse(String text) {
    int eq = text.indexOf('=');
    if (!text.startsWith("/") || eq < 0 || text.length() > MAX_TEXT) {
      throw new BadQueryException("payload", RULE + ", at most " + MAX_TEXT + " chars");
    }
    JsonPointer field;
    try {
      field = JsonPointer.compile(text.substring(0, eq));
    } catch (IllegalArgumentException e) {
      throw new BadQueryException("payload", "not a JSON pointer: " + e.getMessage());
    }
    return new PayloadFilter(field, text.substring(eq + 1));
  }

  /** The names of the field's segments, outermost first (none for the whole payload). */
  static List<String> segments(JsonPointer p) {
    List<String> out = new ArrayList<>();
    for (JsonPointer at = p; at != null && !at.matches(); at = at.tail()) {
      out.add(at.getMatchingProperty());
    }
    return out;
  }

  /** True when {@code payload}'s value at the field is a scalar whose text equals the value. */
  boolean matches(JsonNode payload) {
    JsonNode n = payload.at(field);
    return n.isValueNode() && n.asText().equals(value);
  }

  /** The filter as job views and audit records show it: the field, its value masked. */
  String masked() {
    return field + "=" + Redactor.MASK;
  }

  /** The filter as it was given (forwarded to other instances only). */
  String text() {
    return field + "=" + value;
  }

  @Override
  public String toString() {
    return masked();
  }
}
