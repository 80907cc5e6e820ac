package io.tasklane.scheduler.internal;

import java.util.Map;

/**
 * The rule that {@code tasks}, {@code results}, {@code control} and {@code dependencies} have one
 * partition count. The topology has no join, so Kafka Streams does not enforce it: with different
 * counts it would make one stream task per partition of the largest topic and silently pair
 * partitions of unequal key ranges; partitions added while running move keys to other partitions,
 * where their tasks' state does not live. Checked at start (refuse) and on every topic refresh
 * (stop).
 */
final class CoPartitioning {
  private CoPartitioning() {}

  /** At start: null when every count is the same, else why the scheduler refuses to start. */
  static String atStart(Map<String, Integer> counts) {
    if (counts.values().stream().distinct().count() == 1) {
      return null;
    }
    return "topics must have the same partition count (co-partitioned by routing key), found "
        + counts
        + "; repartition them or point tasklane.scheduler.namespace elsewhere";
  }

  /**
   * While running: null when every topic still has {@code started} partitions (a topic not
   * described this time, -1, is not judged), else why the scheduler stops.
   */
  static String changed(Map<String, Integer> counts, int started) {
    for (Map.Entry<String, Integer> e : counts.entrySet()) {
      int now = e.getValue();
      if (now >= 0 && now != started) {
        return "topic "
            + e.getKey()
            + " now has "
            + now
            + " partitions, it had "
            + started
            + " when the scheduler started (now "
            + counts
            + "): keys moved to other partitions, where their tasks' state does not live, so"
            + " results and commands would be misrouted; the scheduler stops processing."
            + " Partitions cannot be removed: run the scheduler on a new"
            + " tasklane.scheduler.namespace whose tasks, results, control and dependencies have"
            + " one count";
      }
    }
    return null;
  }
}
