package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;

/**
 * Every error answer of the API (schema {@code Error} in {@code openapi.yml}): {@code
 * {"error":"<code>","message":"<what, naming the field and its limit>"}}. Built through {@link
 * ApiErrors}.
 *
 * @param error the code, kebab-case, one of those {@code openapi.yml} lists: {@code
 *     invalid-parameter}, {@code bad-request}, {@code invalid}, {@code invalid-json}, {@code
 *     unauthorized}, {@code forbidden}, {@code csrf}, {@code not-found}, {@code busy}, {@code
 *     too-many-jobs}, {@code too-many-failures}, {@code too-many-sessions}, {@code unavailable}
 * @param message what went wrong, naming the field and its limit where there is one
 */
public record ErrorResponse(String error, String message) {
  /** The code of an answer with {@code status} that names none of its own. */
  static String code(int status) {
    return switch (status) {
      case 400 -> "invalid-parameter";
      case 401 -> "unauthorized";
      case 403 -> "forbidden";
      case 404 -> "not-found";
      default -> "unavailable";
    };
  }

  /**
   * The message of error answer {@code json}; its {@code error} when it has none (an instance of an
   * earlier version put the text there).
   */
  static String messageOf(String json) {
    JsonNode n = WireCodec.readTree(json);
    return n.path("message").isTextual() ? n.path("message").asText() : n.path("error").asText();
  }

  /** This error as JSON. */
  String json() {
    return WireCodec.encodeToString(this);
  }
}
