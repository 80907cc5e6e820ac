package io.tasklane.scheduler.internal.lifecycle;

/**
 * What a task that goes DEAD does to its ordered lane (per handler, {@code <ns>.handler-settings}
 * or the scheduler's {@code lanes.on-dead}; docs/lanes.md).
 */
public enum LanePolicy {
  /**
   * The DEAD task keeps its lane: the tasks behind it wait until an operator retries it (it runs
   * again, first) or discards it (the lane moves on). The lane shows as blocked.
   */
  BLOCK,
  /** The lane moves on to its next task, as if the DEAD task had finished. */
  SKIP
}
