package io.tasklane.scheduler.internal;

import io.tasklane.core.TaskState;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The state-count store ({@link Stores#STATE_COUNTS}) of one stream task: tasks per state (key
 * {@code STATE}), read by the {@code tasklane.scheduler.tasks} gauge, and tasks per state and
 * handler (key {@code STATE/handler}, tasks with an envelope only), read by {@code GET
 * /api/tasks/counts}. Moved by {@link TaskIndex}; a count is read from the store once per stream
 * task start and then from the task's memory. Used on the stream task's thread only.
 */
final class StateCounts {
  /** Between the state and the handler in a per-handler key; never in a handler name. */
  static final char SEP = '/';

  private final KeyValueStore<String, Long> store;
  private final Supplier<Map<String, Long>> known;

  /**
   * @param known the stream task's copies of the counts read or written so far (looked up at each
   *     use: a new map after the stream task's memory is started afresh)
   */
  StateCounts(KeyValueStore<String, Long> store, Supplier<Map<String, Long>> known) {
    this.store = store;
    this.known = known;
  }

  /**
   * A task moved from {@code before} of handler {@code handlerBefore} (nulls when new, or a task
   * without an envelope) to {@code after} of {@code handlerAfter} (nulls when forgotten).
   */
  void moved(TaskState before, String handlerBefore, TaskState after, String handlerAfter) {
    if (before != after) {
      add(before, -1, null);
      add(after, 1, null);
    }
    if (before != after || !Objects.equals(handlerBefore, handlerAfter)) {
      if (handlerBefore != null) {
        add(before, -1, handlerBefore);
      }
      if (handlerAfter != null) {
        add(after, 1, handlerAfter);
      }
    }
  }

  /** The key of the count of {@code state} and {@code handler} (null: of the state). */
  static String key(TaskState state, String handler) {
    return handler == null ? state.name() : state.name() + SEP + handler;
  }

  private void add(TaskState state, long delta, String handler) {
    if (state == null) {
      return;
    }
    String key = key(state, handler);
    Map<String, Long> copies = known.get();
    Long now = copies.get(key);
    if (now == null) {
      now = store.get(key);
    }
    long next = Math.max(0, (now == null ? 0 : now) + delta);
    store.put(key, next);
    copies.put(key, next);
  }
}
