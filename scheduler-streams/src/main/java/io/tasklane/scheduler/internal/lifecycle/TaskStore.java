package io.tasklane.scheduler.internal.lifecycle;

import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The only way into the four stores of one stream task. Writing a record also moves its timer's
 * entry in the {@link DueIndex} (a time key, or a queue key), its search entry and {@link
 * StateCounts} ({@link TaskIndex}), its handler's load in the {@link FlowControlQueues} and the
 * report figures ({@link ReportRecorder}), so none of them drifts from the records; the {@link
 * TimerRepair} writes back entries a crash lost. One instance per stream task, owned by its {@link
 * TaskLifecycle} (the only class that writes through it), used on the stream task's thread only
 * (processing and punctuation). A record and then its due-index and search entries are written
 * through to RocksDB and the changelogs at once, so no index leads its record; the counts go to
 * their store's cache and reach the changelog at the next commit (under {@code exactly_once_v2} all
 * in the commit's transaction; {@link Stores}), except a DISPATCHED record and its search entry,
 * held until the commit ({@link DeferredWrites}). A record written or read lately is read back from
 * the stream task's {@link TaskMemory}.
 */
final class TaskStore {
  private final KeyValueStore<String, TaskRecord> tasks;
  private final DueIndex index;
  private final TaskIndex search;
  private final FlowControlQueues queues;
  private final Lanes lanes;
  private final TimerRepair repair;
  private final FinishedPurge purge;
  private final DeferredWrites deferred;
  private final TaskMemory.Shared shared;
  private TaskMemory memory;
  private final ReportStores reports;

  /**
   * Opens the stores of the stream task; its {@link TaskMemory} is derived afresh from them (they
   * were just restored, or the task moved or crashed).
   */
  TaskStore(ProcessingContext context, TaskMemory.Shared shared, HandlerControls controls) {
    this.shared = shared;
    this.memory = shared.open();
    this.tasks = context.getStateStore(Stores.TASKS);
    this.index = new DueIndex(context.getStateStore(Stores.DUE_INDEX), this::memory);
    this.search =
        new TaskIndex(
            context.getStateStore(Stores.TASK_INDEX),
            new StateCounts(
                context.getStateStore(Stores.STATE_COUNTS), () -> memory().counts, tasks::all));
    this.deferred = new DeferredWrites(tasks, search);
    deferred.writeAt(context.getStateStore(Stores.COMMIT_HOOK));
    this.lanes = Lanes.of(context, this, controls);
    this.queues =
        new FlowControlQueues(
            index,
            search,
            this::get,
            () -> memory().load,
            () -> memory().deadlines,
            deferred,
            lanes);
    this.repair =
        new TimerRepair(tasks, index, search, this::memory, deferred::holds, lanes::reassert);
    this.purge = new FinishedPurge(search, this::get, this::memory);
    this.reports = new ReportStores(context);
  }

  /** The stream task closes (moved, crashed, shut down): merges the report figures it holds. */
  void close() {
    reports.closed(memory().reports);
  }

  /**
   * Forgets what the stream task keeps in memory, to be derived from the stores again, as when it
   * reopens after a crash or a move (tests).
   */
  void forgetMemory() {
    deferred.flush();
    memory = shared.open();
  }

  /** The due-index the schedules' timers share with the tasks'. */
  DueIndex dueIndex() {
    return index;
  }

  /**
   * Merges the report figures into the report stores and hands the queued counts to the backlog
   * rule, each once a second (punctuator).
   */
  void flushReports(long now) {
    reports.tick(memory(), now);
  }

  /** Rewrites the state counts once when they are of an earlier format ({@link StateCounts}). */
  void upgradeCounts() {
    search.upgradeCounts();
  }

  /**
   * Notes {@code now} as the instant the stream task opened unless one is noted already, and opens
   * the report stores' segments then: called with the time of its first input record or tick since
   * its processors opened (Kafka Streams sets the context's clock only then). {@link TimerRepair}.
   */
  void opened(long now) {
    TaskMemory m = memory();
    if (m.openedAt == Long.MIN_VALUE) {
      m.openedAt = now;
      reports.opened(now);
    }
  }

  /** Per-handler queues and load. */
  FlowControlQueues queues() {
    return queues;
  }

  /** The lanes: ordered and keyed tasks' places and turns. */
  Lanes lanes() {
    return lanes;
  }

  /**
   * The record of {@code id}, null when none: a record held until the commit ({@link
   * DeferredWrites}), else a DISPATCHED record written or read lately from memory (a result's
   * routing check and its transition then decode no record at all), else the stored one.
   */
  TaskRecord get(String id) {
    TaskRecord r = deferred.get(id);
    if (r != null) {
      return r;
    }
    r = memory().recent.get(id);
    if (r == null) {
      r = tasks.get(id);
      memory().remember(id, r);
    }
    return r;
  }

  /** Stores {@code next} (replacing {@code previous}, null when new) with its timer and count. */
  void put(String id, TaskRecord previous, TaskRecord next) {
    write(id, previous, next, TaskRecord.timerMoved(previous, next));
  }

  /**
   * Stores {@code next} in place of {@code fired}, whose time entry (DUE, DEADLINE or PURGE) the
   * punctuator took out of the index when it fired ({@link #removeEntry}).
   */
  void putFired(String id, TaskRecord fired, TaskRecord next) {
    write(id, fired, next, false);
  }

  /** Forgets a task: its record, its timer and its count. */
  void delete(String id, TaskRecord previous) {
    forget(id, previous);
    dropTimer(id, previous);
  }

  /** Takes {@code r}'s timer out of the due-index or out of memory, where it is. */
  private void dropTimer(String id, TaskRecord r) {
    if (TaskRecord.timerInIndex(r)) {
      index.delete(id, r);
    } else if (TaskRecord.timerInMemory(r)) {
      memory().deadlines.remove(r.timerAt(), id);
    }
  }

  /** Forgets {@code fired}, whose time entry the punctuator took out of the index already. */
  void deleteFired(String id, TaskRecord fired) {
    forget(id, fired);
  }

  /**
   * Up to {@code bound} timers due at or before {@code now}: the attempts' deadlines first ({@link
   * DeadlineTimers}, taken out of memory), then the due-index's time entries, each in due order.
   */
  List<DueIndex.Entry> due(long now, int bound) {
    List<DueIndex.Entry> due = memory().deadlines.due(now, bound);
    if (due.size() < bound) {
      List<DueIndex.Entry> stored = index.due(now, bound - due.size());
      if (due.isEmpty()) {
        return stored;
      }
      due.addAll(stored);
    }
    return due;
  }

  /** The value of the due-index entry {@code key} now, or null when it is no longer there. */
  byte[] entry(Bytes key) {
    return index.get(key);
  }

  /** Takes an entry read from the index out of it: it fires, is stale, or failed. */
  void removeEntry(Bytes key) {
    index.remove(key);
  }

  /** Takes a queue entry (a search entry) out: its task no longer waits under it, or failed. */
  void removeQueueEntry(Bytes key) {
    search.remove(key);
  }

  /**
   * Forgets up to {@code bound} finished tasks whose retention has passed ({@link FinishedPurge});
   * returns how many search entries it handled. Punctuator only.
   */
  int purgeFinished(
      long now,
      long retentionMs,
      int bound,
      FinishedPurge.Failure failure,
      SchedulerMetrics metrics) {
    return purge.purge(now, retentionMs, bound, this::delete, failure, metrics);
  }

  /**
   * Forgets a task whose record cannot be read, found by its search entry {@code key}: the entry
   * and the record go (its count cannot be told and stays).
   */
  void forgetUnreadable(String id, Bytes key) {
    deferred.release(id);
    search.remove(key);
    tasks.put(id, null);
    memory().recent.remove(id);
  }

  /** Writes {@code record}'s index entry again (a repeated input, see {@link TimerRepair}). */
  void reassertTimer(String id, TaskRecord record) {
    if (!deferred.holds(id)) { // a held record's entries are written with it
      repair.reassert(id, record);
    }
  }

  /**
   * Writes back lost index entries of the next records, at most {@code slice} and for at most
   * {@code budgetNanos}, and hands the DISPATCHED ones dispatched shortly before the stream task
   * opened to {@code lost} (see {@link TimerRepair}).
   */
  void repairTimers(
      int slice,
      long budgetNanos,
      SchedulerMetrics metrics,
      long now,
      TimerRepair.LostDispatch lost) {
    repair.repairNextSlice(slice, budgetNanos, metrics, now, lost);
  }

  /**
   * Writes the record, then (so that no index leads it) its timer entries, its search entry and its
   * count; {@code deleteTimer}: the entry of {@code previous}'s timer goes. A DISPATCHED record and
   * its search entry wait for the commit ({@link DeferredWrites}).
   */
  private void write(String id, TaskRecord previous, TaskRecord next, boolean deleteTimer) {
    search.upgradeCounts(); // before the record: a count afresh must not see it and then add it
    DeferredWrites.Held held = deferred.release(id);
    Bytes entry = held != null ? held.entry : TaskIndexKey.of(id, previous);
    TaskRecord stored = held != null ? held.stored : previous;
    boolean defer = stored != null && deferred.defers(next); // a new task is stored at once
    if (!defer) {
      tasks.put(id, next);
    }
    if (deleteTimer) {
      dropTimer(id, previous);
    }
    if (TaskRecord.timerInIndex(next)) {
      index.put(id, next);
    } else if (TaskRecord.timerInMemory(next)) {
      memory().deadlines.add(next.timerAt(), id);
    }
    WaitTimers.move(index, id, previous, next);
    entry = search.move(id, entry, next, !defer);
    if (defer) {
      deferred.hold(id, next, entry, stored);
    } else {
      search.counted(stored, next);
    }
    memory().remember(id, next);
    memory().load.moved(previous, next);
    memory().reports.moved(id, previous, next);
    lanes.moved(id, previous, next);
  }

  private void forget(String id, TaskRecord previous) {
    search.upgradeCounts();
    DeferredWrites.Held held = deferred.release(id);
    tasks.put(id, null);
    WaitTimers.move(index, id, previous, null);
    search.move(id, held != null ? held.entry : TaskIndexKey.of(id, previous), null, true);
    search.counted(held != null ? held.stored : previous, null);
    memory().recent.remove(id);
    memory().load.moved(previous, null);
    lanes.moved(id, previous, null);
  }

  TaskMemory memory() {
    return memory;
  }
}
