package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Writes due-index entries (a task's own timer and its wait-timeout timer) and search-index ({@link
 * TaskIndex}) entries back where a crash under at-least-once lost them. Two ways: a repeated input
 * record that finds its change already made writes its task's entry again ({@link #reassert}); and
 * after every (re)start of the stream task the punctuator reads the task store a slice per tick and
 * writes back every missing entry ({@link #repairNextSlice}), since a change made by the punctuator
 * is not replayed. A DISPATCHED record's deadline is not an entry but a {@link DeadlineTimers}
 * member: both ways add it there (a set, so one the load count added already is kept once).
 *
 * <p>The same pass hands every DISPATCHED record whose attempt was dispatched in the {@link
 * #RESEND_WINDOW_MS} before the stream task opened to a {@link LostDispatch}, which sends that
 * dispatch again. Under at-least-once the record and its dispatch are separate output records of
 * one commit: a kill -9, or a produce error that fails the task (a partition whose leader moved),
 * can keep the record (in the changelog, or in the local store a dirty close keeps) and lose the
 * dispatch, and nothing writes it again: the replay of an input finds the attempt already
 * DISPATCHED and only reasserts its timer, a retry or a queue release made by the punctuator is not
 * replayed at all. The attempt would then wait for its deadline (its timeout plus {@code
 * timeout-grace}, 35 min by default) with no worker holding it. Used on the stream task's thread
 * only.
 */
final class TimerRepair {
  /**
   * How long before the stream task opened an attempt may have been dispatched for its dispatch to
   * be sent again: a record lost with a failed producer was sent at most the producer's {@code
   * delivery.timeout.ms} (2 min by default) before the failure, and the stream task reopens within
   * seconds of it in the same process, or after the session timeout and a restore elsewhere.
   */
  static final long RESEND_WINDOW_MS = 180_000;

  /** Sends the dispatch of a DISPATCHED record again (same attempt, nonce and deadline). */
  interface LostDispatch {
    void resend(String id, TaskRecord record, long now);
  }

  private final KeyValueStore<String, TaskRecord> tasks;
  private final DueIndex index;
  private final TaskIndex search;
  private final Supplier<TaskMemory> memory;
  private final Predicate<String> held;
  private final BiConsumer<String, TaskRecord> lanes;

  /**
   * @param held whether a task's newer record is held until the commit ({@link DeferredWrites}):
   *     its stored record is out of date and its entries are written with the held one
   * @param lanes writes a record's waiting entry in its lane back ({@link Lanes#reassert})
   */
  TimerRepair(
      KeyValueStore<String, TaskRecord> tasks,
      DueIndex index,
      TaskIndex search,
      Supplier<TaskMemory> memory,
      Predicate<String> held,
      BiConsumer<String, TaskRecord> lanes) {
    this.lanes = lanes;
    this.tasks = tasks;
    this.index = index;
    this.search = search;
    this.memory = memory;
    this.held = held;
  }

  /**
   * Writes {@code record}'s due-index entry again. Under at-least-once a crash can restore the task
   * record without the index entry written with it; the replayed input then finds the record
   * "already done", so every path that ignores a repeat calls this to heal the index.
   */
  void reassert(String id, TaskRecord record) {
    if (record.timerKind() == TimerKind.DEADLINE) {
      memory.get().deadlines.add(record.timerAt(), id);
    } else if (record.hasTimer() && record.timerKind().inDueIndex()) {
      index.put(id, record);
    }
    healWait(id, record);
    search.reassert(id, record);
    lanes.accept(id, record);
  }

  /**
   * Writes {@code record}'s wait-timeout entry ({@link WaitTimers}) back when it has one and the
   * index lacks it; true when it did.
   */
  private boolean healWait(String id, TaskRecord record) {
    long at = WaitTimers.at(record);
    if (at < 0 || index.has(at, WaitTimers.timerId(id))) {
      return false;
    }
    index.put(at, WaitTimers.timerId(id), TimerKind.WAIT);
    return true;
  }

  /**
   * Repairs the next records after the last one read since the stream task opened: at most {@code
   * slice}, and no more once {@code budgetNanos} have passed (at least one), so that a large store
   * is read over many ticks while the stream thread keeps processing its input; a no-op once the
   * whole store has been read.
   */
  void repairNextSlice(
      int slice, long budgetNanos, SchedulerMetrics metrics, long now, LostDispatch lost) {
    TaskMemory m = memory.get();
    if (m.repaired) {
      return;
    }
    if (m.openedAt == Long.MIN_VALUE) {
      m.openedAt = now;
    }
    long since = m.openedAt - RESEND_WINDOW_MS;
    long until = m.openedAt;
    m.repairedUpTo =
        repair(
            m.repairedUpTo,
            slice,
            System.nanoTime() + budgetNanos,
            metrics,
            (id, r) -> {
              long at = dispatchedAt(r);
              if (at >= since && at < until) {
                lost.resend(id, r, now);
              }
            });
    m.repaired = m.repairedUpTo == null;
  }

  /**
   * When the current attempt of a DISPATCHED record was dispatched, {@link Long#MIN_VALUE} when
   * {@code r} is not DISPATCHED or its history does not say.
   */
  static long dispatchedAt(TaskRecord r) {
    if (r.state() != TaskState.DISPATCHED || r.task() == null || r.history().isEmpty()) {
      return Long.MIN_VALUE;
    }
    AttemptEntry last = r.history().get(r.history().size() - 1);
    return last.attempt() == r.attempt() ? last.dispatchedAt() : Long.MIN_VALUE;
  }

  /**
   * Writes back the missing index entries of up to {@code n} records after {@code after} (null:
   * from the first), stopping early at {@code deadline} ({@link System#nanoTime}). Under
   * at-least-once a kill -9 in the middle of a commit's flush can keep a store's changes and lose
   * another's; a change made by the punctuator is not replayed, so a record could keep a timer
   * whose entry is gone and never fire. Returns the last key read, or null when the store has been
   * read to its end.
   */
  private String repair(
      String after,
      int n,
      long deadline,
      SchedulerMetrics metrics,
      BiConsumer<String, TaskRecord> dispatched) {
    return StoreSlice.read(
        tasks,
        after,
        n,
        deadline,
        metrics,
        (id, r) -> {
          if (r == null || held.test(id)) {
            return;
          }
          dispatched.accept(id, r);
          if (r.timerKind() == TimerKind.DEADLINE) {
            memory.get().deadlines.add(r.timerAt(), id); // a set: one the count gave is kept once
          } else if (r.hasTimer() && r.timerKind().inDueIndex() && !index.has(id, r)) {
            index.put(id, r);
            metrics.count(SchedulerEvent.TIMER_HEALED);
          }
          if (healWait(id, r)) {
            metrics.count(SchedulerEvent.TIMER_HEALED);
          }
          if (search.reassert(id, r)) {
            metrics.count(SchedulerEvent.INDEX_HEALED);
          }
          lanes.accept(id, r);
        });
  }
}
