package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The writes of DISPATCHED records, held in memory until the stream task commits ({@link
 * CommitHook}). A no-op task's attempt comes back within a commit interval (1 s under at-least-once
 * by default), so the record of its dispatch and the search entry of its DISPATCHED state are then
 * never written: the result's transition replaces them, and a task costs two changelog records and
 * a record of about a kilobyte less. An attempt still out when the stream task commits is written
 * in that commit, before the input offsets (or the transaction) are committed, so what a commit
 * covers is in the stores as before.
 *
 * <p>What leaves with a dispatch is written at once as before: the queue entry the task leaves (so
 * that no reader of the queue meets it again), the state counts, the deadline in memory. Readers on
 * the stream thread see a held record ({@link TaskStore#get}); the API's readers on other threads
 * see the stored one, a dispatch up to one commit interval late. After a kill -9 a held dispatch is
 * lost with the rest of the uncommitted work: under at-least-once its input is replayed and the
 * task dispatched again, and the first attempt's result is refused (its nonce is not the current
 * one); under {@code exactly_once_v2} the dispatch itself is aborted with the transaction. Owned by
 * the stream task's {@link TaskStore}, used on its stream thread only.
 */
final class DeferredWrites {
  /** A held record and the search entry the index holds for the task now (null: none). */
  private record Held(TaskRecord record, Bytes entry) {}

  private final Map<String, Held> held = new LinkedHashMap<>();
  private final KeyValueStore<String, TaskRecord> tasks;
  private final TaskIndex search;
  private boolean enabled;

  DeferredWrites(KeyValueStore<String, TaskRecord> tasks, TaskIndex search) {
    this.tasks = tasks;
    this.search = search;
  }

  /** Holds writes from now on, written at each commit through {@code hook}. */
  void writeAt(CommitHook hook) {
    hook.beforeCommit(this::flush, held::clear);
    enabled = true;
  }

  /** Whether the write of {@code next} waits for the commit. */
  boolean defers(TaskRecord next) {
    return enabled && next != null && next.state() == TaskState.DISPATCHED;
  }

  /** The held record of {@code id}, null when none is held. */
  TaskRecord get(String id) {
    Held h = held.get(id);
    return h == null ? null : h.record;
  }

  /** Hands every held record to {@code action} (task id, record). */
  void forEach(BiConsumer<String, TaskRecord> action) {
    held.forEach((id, h) -> action.accept(id, h.record));
  }

  boolean holds(String id) {
    return held.containsKey(id);
  }

  /**
   * Lets go of {@code id}'s held record, if any, and returns the search entry the index holds for
   * the task now: the held record's, else that of {@code previous}, the stored record.
   */
  Bytes release(String id, TaskRecord previous) {
    Held h = held.remove(id);
    return h != null ? h.entry : TaskIndexKey.of(id, previous);
  }

  /** Holds {@code record} of {@code id}, whose search entry in the index is {@code entry} now. */
  void hold(String id, TaskRecord record, Bytes entry) {
    held.put(id, new Held(record, entry));
  }

  /** Writes every held record and its search entry (the commit hook; a reopen in tests). */
  void flush() {
    if (held.isEmpty()) {
      return;
    }
    for (Map.Entry<String, Held> e : held.entrySet()) {
      Held h = e.getValue();
      tasks.put(e.getKey(), h.record);
      search.move(e.getKey(), h.entry, h.record, true);
    }
    held.clear();
  }
}
