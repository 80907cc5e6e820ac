package io.tasklane.scheduler.internal.lifecycle;

/**
 * The headers the scheduler itself sets on the tasks of a schedule's fire, which the task lifecycle
 * reads too (a fire's task may be sent ahead of its instant). Workers see them in {@code
 * ctx.headers()}.
 */
public final class TaskHeaders {
  /** The schedule a fire's task came from. */
  public static final String SCHEDULE = "tasklane.schedule";

  /** The fire instant (epoch millis) of a fire's task. */
  public static final String FIRE_TIME = "tasklane.fire-time";

  /** The fire's id, which its finished-task notices name. */
  public static final String FIRE_ID = "tasklane.fire-id";

  /** The parent fire's id on the tasks of a child schedule's fire. */
  public static final String PARENT_FIRE = "tasklane.parent-fire";

  private TaskHeaders() {}
}
