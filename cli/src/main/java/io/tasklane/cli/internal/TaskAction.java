package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The operator actions on a task: the CLI's word, the API's path segment ({@code POST
 * /api/tasks/{id}/<path>}, {@code POST /api/tasks/bulk/<path>}), and how to tell from the task's
 * state before and after that an answer without an outcome (a scheduler that only says 202
 * accepted) took effect.
 */
enum TaskAction {
  CANCEL("cancel", true),
  RETRY("retry-dead", true),
  DISCARD("discard", true),
  TRIGGER("trigger", false);

  private final String path;
  private final boolean bulk;

  TaskAction(String path, boolean bulk) {
    this.path = path;
    this.bulk = bulk;
  }

  /** The API's name of the action. */
  String path() {
    return path;
  }

  /** True when a filter form exists ({@code POST /api/tasks/bulk/<path>}). */
  boolean bulk() {
    return bulk;
  }

  /**
   * True when the task's view moved from {@code before} to {@code after} (null: the task is gone,
   * 404) the way this action moves it.
   */
  boolean applied(JsonNode before, JsonNode after) {
    String was = before.path("state").asText();
    return switch (this) {
      case CANCEL -> after != null && "CANCELLED".equals(after.path("state").asText());
      case RETRY -> "DEAD".equals(was) && after != null && !"DEAD".equals(state(after));
      case DISCARD -> after == null;
      case TRIGGER ->
          after != null && after.path("attempt").asInt() > before.path("attempt").asInt();
    };
  }

  private static String state(JsonNode view) {
    return view.path("state").asText();
  }
}
