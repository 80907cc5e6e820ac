package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.ReservedHeaders;

/**
 * The headers the scheduler itself sets on the tasks of a schedule's fire, which the task lifecycle
 * reads too (a fire's task may be sent ahead of its instant). Workers see them in {@code
 * ctx.headers()}. The names are {@link ReservedHeaders}'.
 */
public final class TaskHeaders {
  /** The schedule a fire's task came from. */
  public static final String SCHEDULE = ReservedHeaders.SCHEDULE;

  /** The fire instant (epoch millis) of a fire's task. */
  public static final String FIRE_TIME = ReservedHeaders.FIRE_TIME;

  /** The fire's id, which its finished-task notices name. */
  public static final String FIRE_ID = ReservedHeaders.FIRE_ID;

  /** The parent fire's id on the tasks of a child schedule's fire. */
  public static final String PARENT_FIRE = ReservedHeaders.PARENT_FIRE;

  private TaskHeaders() {}
}
