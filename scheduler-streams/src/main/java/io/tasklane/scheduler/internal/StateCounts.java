package io.tasklane.scheduler.internal;

import io.tasklane.core.TaskState;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The state-count store ({@link Stores#STATE_COUNTS}) of one stream task: tasks per state and
 * handler (key {@code STATE/handler}), read by {@code GET /api/tasks/counts}, and tasks without an
 * envelope per state (key {@code STATE}: a cancel that came before its task, a placeholder). A
 * state's total, read by the {@code tasklane.scheduler.tasks} gauge, is the sum of its keys ({@link
 * #stateOf}), so a transition moves two counts, not four. Moved by {@link TaskIndex}; a count is
 * read from the store once per stream task start and then from the task's memory. Used on the
 * stream task's thread only.
 */
final class StateCounts {
  /** Between the state and the handler in a per-handler key; never in a handler name. */
  static final char SEP = '/';

  /**
   * The store's format: absent in a store whose {@code STATE} keys held every task of the state
   * (before per-state totals were summed from the per-handler keys); {@link #FORMAT} after {@link
   * #upgradeOnce} rewrote them. Not a state: {@link #stateOf} skips it.
   */
  static final String FORMAT_KEY = "~format";

  static final long FORMAT = 2;

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
   * A task moved from {@code before} of handler {@code handlerBefore} (nulls when new; a null
   * handler: a task without an envelope) to {@code after} of {@code handlerAfter} (nulls when
   * forgotten).
   */
  void moved(TaskState before, String handlerBefore, TaskState after, String handlerAfter) {
    if (before == after && Objects.equals(handlerBefore, handlerAfter)) {
      return;
    }
    upgradeOnce();
    add(before, -1, handlerBefore);
    add(after, 1, handlerAfter);
  }

  /** The key of the count of {@code state} and {@code handler} (null: without an envelope). */
  static String key(TaskState state, String handler) {
    return handler == null ? state.name() : state.name() + SEP + handler;
  }

  /** The state a count key counts, or null for a key that is not a count ({@link #FORMAT_KEY}). */
  static TaskState stateOf(String key) {
    int sep = key.indexOf(SEP);
    String state = sep < 0 ? key : key.substring(0, sep);
    try {
      return TaskState.valueOf(state);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Rewrites a store of the earlier format once: its {@code STATE} keys held every task of the
   * state, now they hold those without an envelope, i.e. the old total less the per-handler counts.
   * Runs at the stream task's first punctuation or first move, whichever comes first; reads every
   * count of the store only when the format key is missing.
   */
  void upgradeOnce() {
    Map<String, Long> copies = known.get();
    if (copies.containsKey(FORMAT_KEY)) {
      return;
    }
    if (store.get(FORMAT_KEY) == null) {
      Map<String, Long> totals = new HashMap<>();
      Map<String, Long> handlers = new HashMap<>();
      try (KeyValueIterator<String, Long> it = store.all()) {
        while (it.hasNext()) {
          KeyValue<String, Long> kv = it.next();
          TaskState s = stateOf(kv.key);
          if (s != null && kv.value != null) {
            (kv.key.indexOf(SEP) < 0 ? totals : handlers).merge(s.name(), kv.value, Long::sum);
          }
        }
      }
      totals.forEach(
          (state, total) ->
              store.put(state, Math.max(0, total - handlers.getOrDefault(state, 0L))));
      store.put(FORMAT_KEY, FORMAT);
    }
    copies.put(FORMAT_KEY, FORMAT);
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
