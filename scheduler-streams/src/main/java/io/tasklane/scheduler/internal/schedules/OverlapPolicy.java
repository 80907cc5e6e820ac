package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.ScheduleDefinition;
import java.util.List;

/**
 * What a due fire does while earlier fires of its schedule still run (their tasks are not all
 * terminal). A pure strategy per {@link ScheduleDefinition.Overlap}; the {@link ScheduleMachine}
 * carries the decision out on the stream thread.
 */
interface OverlapPolicy {

  /** The decision for a fire due now, given the running fires and whether one already waits. */
  Decision decide(List<FireRecord> running, boolean oneWaits);

  /** What the fire does. */
  enum Action {
    /** Make its tasks now. */
    RUN,
    /** Make no task; record it as skipped with the reason. */
    SKIP,
    /** Wait until the running fires finish. */
    WAIT,
    /** Cancel the running fires' unfinished tasks, then make its tasks now. */
    REPLACE
  }

  /** An action and, for {@code SKIP} and {@code WAIT}, why. */
  record Decision(Action action, String reason) {
    static final Decision RUN = new Decision(Action.RUN, null);
  }

  static OverlapPolicy of(ScheduleDefinition.Overlap overlap) {
    return switch (overlap) {
      case ALLOW -> (running, waits) -> Decision.RUN;
      case SKIP_IF_RUNNING ->
          (running, waits) ->
              running.isEmpty()
                  ? Decision.RUN
                  : new Decision(Action.SKIP, "running: fire " + running.get(0).fireId());
      case QUEUE ->
          (running, waits) -> {
            if (running.isEmpty() && !waits) {
              return Decision.RUN;
            }
            return waits
                ? new Decision(Action.SKIP, "queue-full: a fire already waits")
                : new Decision(Action.WAIT, "waiting for fire " + running.get(0).fireId());
          };
      case REPLACE ->
          (running, waits) -> running.isEmpty() ? Decision.RUN : new Decision(Action.REPLACE, null);
    };
  }
}
