package io.tasklane.scheduler.internal.topology;

import io.tasklane.core.CancelCommand;
import io.tasklane.core.ControlCommand;
import io.tasklane.core.ControlRecord;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;

/**
 * What the scheduler checks on a control record before it looks at any state: every id it names is
 * a task id ({@link TaskIds#isValid}, a canonical lower-case UUID), an {@code await}'s waiter
 * routing key is a key a task could have, and the record travels on its own topic: the operator
 * commands on {@code <ns>.control}, the dependency protocol ({@code await}, {@code
 * dependency-done}) on {@code <ns>.dependencies}, which only the scheduler may write. Stateless.
 */
public final class ControlChecks {
  /** The dead-letter reason of a dependency-protocol record found on {@code <ns>.control}. */
  public static final String SCHEDULER_ONLY = "scheduler-only";

  /** The dead-letter reason of an operator command found on {@code <ns>.dependencies}. */
  public static final String WRONG_TOPIC = "wrong-topic";

  private ControlChecks() {}

  /** Whether {@code value} belongs to the scheduler's dependency protocol. */
  static boolean isDependencyProtocol(ControlRecord value) {
    return value instanceof ControlCommand.Await
        || value instanceof ControlCommand.DependencyDone
        || value instanceof ControlCommand.RateAsk
        || value instanceof ControlCommand.RateAnswer;
  }

  /** The record's wire type, e.g. {@code await}. */
  static String typeOf(ControlRecord value) {
    if (value instanceof CancelCommand) {
      return "cancel";
    } else if (value instanceof ControlCommand.RetryDead) {
      return "retry-dead";
    } else if (value instanceof ControlCommand.Trigger) {
      return "trigger";
    } else if (value instanceof ControlCommand.Discard) {
      return "discard";
    } else if (value instanceof ControlCommand.Await) {
      return "await";
    } else if (value instanceof ControlCommand.RateAsk) {
      return "rate-ask";
    } else if (value instanceof ControlCommand.RateAnswer) {
      return "rate-answer";
    }
    return "dependency-done";
  }

  /** Why {@code value} names something other than task ids, or null when every id is one. */
  static String invalid(ControlRecord value) {
    String problem = notAnId("id", value.id());
    if (problem == null && value instanceof ControlCommand.Await a) {
      problem = notAnId("waiterId", a.waiterId());
      if (problem == null
          && (a.waiterRoutingKey() == null
              || a.waiterRoutingKey().isEmpty()
              || a.waiterRoutingKey().length() > TaskLimits.MAX_KEY_CHARS)) {
        problem = "waiterRoutingKey must be 1 to " + TaskLimits.MAX_KEY_CHARS + " characters";
      }
      for (int i = 0; problem == null && i < a.path().size(); i++) {
        problem = notAnId("path[" + i + "]", a.path().get(i));
      }
    } else if (problem == null && value instanceof ControlCommand.DependencyDone d) {
      problem = notAnId("dependencyId", d.dependencyId());
    } else if (problem == null && value instanceof ControlCommand.RateAsk a) {
      problem = notALimit(a.limit());
      if (problem == null
          && (a.routingKey() == null
              || a.routingKey().isEmpty()
              || a.routingKey().length() > TaskLimits.MAX_KEY_CHARS)) {
        problem = "routingKey must be 1 to " + TaskLimits.MAX_KEY_CHARS + " characters";
      }
    } else if (problem == null && value instanceof ControlCommand.RateAnswer a) {
      problem = notALimit(a.limit());
    }
    return problem == null ? null : typeOf(value) + " refused: " + problem;
  }

  private static String notALimit(String limit) {
    return ControlCommand.RateAsk.isLimitKey(limit)
        ? null
        : "limit "
            + (limit == null ? "is missing" : "'" + shown(limit) + "' is not a limit's key")
            + " (a limit name, or handler/ and a handler name)";
  }

  private static String notAnId(String field, String id) {
    if (TaskIds.isValid(id)) {
      return null;
    }
    return field
        + " "
        + (id == null ? "is missing" : "'" + shown(id) + "' is not a task id")
        + " (a canonical lower-case UUID, 36 characters)";
  }

  /** {@code id} for a log line: at most 40 characters, control characters as {@code ?}. */
  private static String shown(String id) {
    String cut = id.length() > 40 ? id.substring(0, 40) + "…" : id;
    return cut.replaceAll("\\p{Cntrl}", "?");
  }
}
