package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.lifecycle.Commands;
import io.tasklane.scheduler.internal.lifecycle.TimerKind;
import java.util.Set;

/**
 * An operator command on one task ({@code POST /api/tasks/{id}/<action>}) and how its effect shows
 * in the task's status: which current state makes it a no-op (answered {@code ignored} without
 * writing it, the same rule {@link Commands} applies), and which later status shows it applied.
 * Stateless; any thread.
 */
enum TaskAction {
  CANCEL("cancel"),
  RETRY_DEAD("retry-dead"),
  DISCARD("discard"),
  TRIGGER("trigger");

  private static final Set<TaskState> WAITING_TO_RUN =
      Set.of(TaskState.PENDING, TaskState.RETRYING, TaskState.NO_HANDLER);

  /** The action's name in paths and answers. */
  final String path;

  TaskAction(String path) {
    this.path = path;
  }

  /**
   * Why the command would change nothing for a task whose status is {@code task} (e.g. {@code
   * already SUCCEEDED}), or null when it applies.
   */
  String noOp(JsonNode task) {
    TaskState state = stateOf(task);
    if (state == null) {
      return null; // a marker of a task not arrived yet: only cancel acts on it, and applies
    }
    return switch (this) {
      case CANCEL -> state.isTerminal() ? "already " + state : null;
      case RETRY_DEAD, DISCARD -> state == TaskState.DEAD ? null : notIn(state, "DEAD");
      case TRIGGER -> {
        if (!WAITING_TO_RUN.contains(state)) {
          yield notIn(state, "PENDING, RETRYING or NO_HANDLER");
        }
        yield TimerKind.QUEUED.name().equals(task.path("timerKind").asText())
            ? "already due, queued for a free slot of its handler"
            : null;
      }
    };
  }

  /**
   * Whether the status read {@code after} ({@code status} 200 with the task, or 404) shows the
   * command applied to the task that read as {@code before}.
   */
  boolean applied(JsonNode before, int status, JsonNode after) {
    if (this == DISCARD) {
      return status == 404;
    }
    if (status != 200) {
      return false;
    }
    return switch (this) {
      case CANCEL -> stateOf(after) == TaskState.CANCELLED;
      case RETRY_DEAD -> stateOf(after) != TaskState.DEAD;
      case TRIGGER, DISCARD -> after.path("updatedAt").asLong() > before.path("updatedAt").asLong();
    };
  }

  static TaskState stateOf(JsonNode task) {
    JsonNode s = task == null ? null : task.get("state");
    return s == null || s.isNull() ? null : TaskState.valueOf(s.asText());
  }

  private static String notIn(TaskState state, String wanted) {
    return state.isTerminal() ? "already " + state : "is " + state + ", not " + wanted;
  }
}
