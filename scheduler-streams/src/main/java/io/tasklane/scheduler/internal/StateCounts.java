package io.tasklane.scheduler.internal;

import io.tasklane.core.TaskState;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The state-count store ({@link Stores#STATE_COUNTS}) of one stream task: tasks per state, read by
 * the {@code tasklane.scheduler.tasks} gauge. Used on the stream task's thread only; flushed with
 * the other stores at each commit.
 */
final class StateCounts {
  private final KeyValueStore<String, Long> store;

  StateCounts(KeyValueStore<String, Long> store) {
    this.store = store;
  }

  /** A task moved from {@code before} (null when new) to {@code after}. */
  void moved(TaskState before, TaskState after) {
    if (before != after) {
      add(before, -1);
      add(after, 1);
    }
  }

  /** A task in {@code state} was forgotten. */
  void removed(TaskState state) {
    add(state, -1);
  }

  private void add(TaskState state, long delta) {
    if (state == null) {
      return;
    }
    Long now = store.get(state.name());
    long next = (now == null ? 0 : now) + delta;
    store.put(state.name(), Math.max(0, next));
  }
}
