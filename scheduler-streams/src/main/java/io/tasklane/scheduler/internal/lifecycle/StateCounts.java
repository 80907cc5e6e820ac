package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The state-count store ({@link Stores#STATE_COUNTS}) of one stream task: tasks per state and
 * handler (key {@code STATE/handler}), read by {@code GET /api/tasks/counts}, and tasks without an
 * envelope per state (key {@code STATE}: a cancel that came before its task, a placeholder). A
 * state's total, read by the {@code tasklane.scheduler.tasks} gauge, is the sum of its keys ({@link
 * #stateOf}), so a transition moves two counts, not four. Moved by {@link TaskIndex}; a count is
 * read from the store once per stream task start and then from the task's memory. A store of an
 * earlier format (0.1.0 kept one total per state, without handlers) is counted afresh from the task
 * records once ({@link #upgradeOnce}). Used on the stream task's thread only.
 */
public final class StateCounts {
  /** Between the state and the handler in a per-handler key; never in a handler name. */
  public static final char SEP = '/';

  /**
   * The store's format: absent in a store of an earlier format (whose {@code STATE} keys held every
   * task of the state); {@link #FORMAT} after {@link #upgradeOnce} counted it afresh. Not a state:
   * {@link #stateOf} skips it.
   */
  static final String FORMAT_KEY = "~format";

  static final long FORMAT = 2;

  private final KeyValueStore<String, Long> store;
  private final Supplier<Map<String, Long>> known;
  private final Supplier<KeyValueIterator<String, TaskRecord>> records;

  /** The keys whose count changed since the last {@link #flush}. */
  private final java.util.Set<String> changed = new java.util.LinkedHashSet<>();

  /**
   * @param known the stream task's copies of the counts read or written so far (looked up at each
   *     use: a new map after the stream task's memory is started afresh)
   * @param records every task record of the stream task, read once to count a store of an earlier
   *     format afresh
   */
  StateCounts(
      KeyValueStore<String, Long> store,
      Supplier<Map<String, Long>> known,
      Supplier<KeyValueIterator<String, TaskRecord>> records) {
    this.store = store;
    this.known = known;
    this.records = records;
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
  public static TaskState stateOf(String key) {
    int sep = key.indexOf(SEP);
    String state = sep < 0 ? key : key.substring(0, sep);
    try {
      return TaskState.valueOf(state);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Counts a store of an earlier format afresh from the task records, once: a 0.1.0 store held one
   * total per state and no handler, a later one totals beside the per-handler counts, and the
   * records are the truth for both. Runs at the stream task's first punctuation or before its first
   * record is written ({@link TaskStore}), whichever comes first; reads every record of the stream
   * task only when the format key is missing from a store that holds counts (once per store, at the
   * first start after the upgrade); a new, empty store is only marked.
   */
  void upgradeOnce() {
    Map<String, Long> copies = known.get();
    if (copies.containsKey(FORMAT_KEY)) {
      return;
    }
    if (store.get(FORMAT_KEY) == null && !isEmpty()) { // empty: a new store, nothing to count
      Map<String, Long> counted = new HashMap<>();
      try (KeyValueIterator<String, TaskRecord> it = records.get()) {
        while (it.hasNext()) {
          TaskRecord r = it.next().value;
          if (r != null && r.state() != null) {
            counted.merge(
                key(r.state(), r.task() == null ? null : r.task().handler()), 1L, Long::sum);
          }
        }
      }
      java.util.List<String> old = new java.util.ArrayList<>();
      try (KeyValueIterator<String, Long> it = store.all()) {
        it.forEachRemaining(kv -> old.add(kv.key));
      }
      old.forEach(k -> store.put(k, null));
      counted.forEach(store::put);
      copies.clear();
      copies.putAll(counted);
    }
    if (store.get(FORMAT_KEY) == null) {
      store.put(FORMAT_KEY, FORMAT);
    }
    copies.put(FORMAT_KEY, FORMAT);
  }

  private boolean isEmpty() {
    try (KeyValueIterator<String, Long> it = store.all()) {
      return !it.hasNext();
    }
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
    copies.put(key, next);
    changed.add(key);
  }

  /**
   * Writes every count changed since the last call, once: called before each commit of the stream
   * task ({@link DeferredWrites}), after the records of that commit are written, so a commit holds
   * the counts of the records it holds.
   */
  void flush() {
    if (changed.isEmpty()) {
      return;
    }
    Map<String, Long> copies = known.get();
    for (String key : changed) {
      Long n = copies.get(key);
      if (n != null) {
        store.put(key, n);
      }
    }
    changed.clear();
  }
}
