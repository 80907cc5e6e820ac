package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The writes of DISPATCHED records, held in memory and written at a later commit of the stream task
 * ({@link CommitHook}). Most attempts come back within a second or two, so the record of the
 * dispatch and its search entry are then never written: the result's transition replaces them, and
 * a task costs two changelog records and a task record of a few hundred bytes less. The state
 * counts follow the stored records: they move when a record is written, from the stored one, and
 * are written once per commit ({@link StateCounts#flush}).
 *
 * <p>When a held record is written: a task that left the flow-control queue (its stored record is
 * still the queued one) is written at the second commit after its dispatch, since a crash before
 * then loses nothing: its queue entry is gone, but the write-back pass after the restart ({@link
 * TimerRepair}) puts it back from the stored record, and the task is dispatched again (its first
 * attempt's result, if it comes, is fenced or refused as a mismatch; the worker's idempotency store
 * keeps the effect single). Any other stored task (a retry, a released waiter: nothing stored would
 * bring it back) is written at the first commit, which is also the one that commits the input (or
 * the punctuation) that dispatched it, so what a commit covers is stored as before. A task admitted
 * straight to a dispatch is not held at all: it has no stored record yet, and the API must find it
 * as soon as it is admitted. A clean close commits, and so writes, everything held; a dirty close
 * drops it with the rest of the uncommitted work.
 *
 * <p>What leaves with a dispatch is written at once as before: the queue entry the task leaves (so
 * that no reader of the queue meets it again), its deadline in memory, the flow-control load.
 * Readers on the stream thread see a held record ({@link TaskStore#get}); the API's readers on
 * other threads see the stored one and the stored counts. Owned by the stream task's {@link
 * TaskStore}, used on its stream thread only.
 */
final class DeferredWrites {
  /** A held record, the search entry the index holds for the task now, and its stored record. */
  static final class Held {
    final TaskRecord record;
    final Bytes entry;
    final TaskRecord stored;
    private boolean committedOnce;

    private Held(TaskRecord record, Bytes entry, TaskRecord stored) {
      this.record = record;
      this.entry = entry;
      this.stored = stored;
    }
  }

  private final Map<String, Held> held = new LinkedHashMap<>();
  private final KeyValueStore<String, TaskRecord> tasks;
  private final TaskIndex search;
  private boolean enabled;

  DeferredWrites(KeyValueStore<String, TaskRecord> tasks, TaskIndex search) {
    this.tasks = tasks;
    this.search = search;
  }

  /** Holds writes from now on, written at the commits {@code hook} tells of. */
  void writeAt(CommitHook hook) {
    hook.beforeCommit(this::commit, held::clear);
    enabled = true;
  }

  /** Whether the write of {@code next} is held. */
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

  /** Lets go of {@code id}'s held record and returns it, null when none was held. */
  Held release(String id) {
    return held.remove(id);
  }

  /**
   * Holds {@code record} of {@code id}, whose search entry in the index is {@code entry} now and
   * whose stored record is {@code stored} (null: none).
   */
  void hold(String id, TaskRecord record, Bytes entry, TaskRecord stored) {
    held.put(id, new Held(record, entry, stored));
  }

  /** Before a commit: writes what is due, then the counts. */
  private void commit() {
    write(false);
  }

  /** Writes every held record, then the counts (a reopen in tests). */
  void flush() {
    write(true);
  }

  private void write(boolean all) {
    Iterator<Map.Entry<String, Held>> it = held.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, Held> e = it.next();
      Held h = e.getValue();
      if (all || h.committedOnce || !requeued(h.stored)) {
        tasks.put(e.getKey(), h.record);
        search.move(e.getKey(), h.entry, h.record, true);
        search.counted(h.stored, h.record);
        it.remove();
      } else {
        h.committedOnce = true;
      }
    }
    search.flushCounts();
  }

  /** Whether a crash would bring the task back from its stored record: it is a queued one. */
  private static boolean requeued(TaskRecord stored) {
    return stored != null
        && stored.task() != null
        && stored.timerKind() == TimerKind.QUEUED
        && (stored.state() == TaskState.PENDING || stored.state() == TaskState.RETRYING);
  }
}
