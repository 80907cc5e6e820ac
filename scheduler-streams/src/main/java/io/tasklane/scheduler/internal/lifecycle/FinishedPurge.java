package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * Forgets finished tasks (SUCCEEDED, DEAD, CANCELLED) once the retention has passed since their
 * last change, found through their search entries ({@link TaskIndex}), whose (state, handler)
 * groups are in {@code updatedAt} order: a pass reads each group from where the last one stopped up
 * to {@code now - retention}, and deletes each record that still matches its entry (its record, its
 * entry and its count, through {@link TaskStore#delete}); an entry no record matches is stale and
 * only removed. So a finished task carries no purge timer: finishing it writes no due-index entry
 * and purging it deletes none. A task without an envelope (a cancel before its task, an awaited
 * placeholder) has no search entry and keeps its PURGE timer; so do the finished tasks an earlier
 * version stored, which either way are forgotten once. Runs on the stream task's punctuator, at
 * most {@code bound} entries a tick, and only from {@link TaskMemory#nextPurgeAt} on: each pass
 * sets it to the earliest instant an entry left can be due.
 */
final class FinishedPurge {
  static final List<TaskState> FINISHED =
      List.of(TaskState.SUCCEEDED, TaskState.DEAD, TaskState.CANCELLED);

  /** What to do with an entry whose record cannot be read. */
  interface Failure {
    void failed(String id, Bytes key, long now, RuntimeException error);
  }

  private final TaskIndex search;
  private final Function<String, TaskRecord> records;
  private final Supplier<TaskMemory> memory;

  FinishedPurge(
      TaskIndex search, Function<String, TaskRecord> records, Supplier<TaskMemory> memory) {
    this.search = search;
    this.records = records;
    this.memory = memory;
  }

  /**
   * Forgets up to {@code bound} finished tasks whose last change is {@code retentionMs} old at
   * {@code now}, deleting each with {@code forget}; returns how many entries it handled.
   */
  int purge(
      long now,
      long retentionMs,
      int bound,
      Forget forget,
      Failure failure,
      SchedulerMetrics metrics) {
    TaskMemory m = memory.get();
    if (bound <= 0 || now < m.nextPurgeAt) {
      return 0;
    }
    long until = now - retentionMs;
    long next = Long.MAX_VALUE;
    int handled = 0;
    for (TaskState state : FINISHED) {
      for (String handler : search.handlersIn(state)) {
        String group = state.name() + StateCounts.SEP + handler;
        List<Bytes> keys = new ArrayList<>();
        long from = m.purgedUpTo.getOrDefault(group, 0L);
        long after = search.upTo(state, handler, from, until, bound - handled, keys);
        int prefix = TaskIndexKey.prefix(state, handler).length;
        for (Bytes key : keys) {
          String id = TaskIndexKey.taskId(key, prefix);
          purgeOne(id, key, now, forget, failure, metrics);
          m.purgedUpTo.put(group, TaskIndexKey.updatedAt(key, prefix));
          handled++;
        }
        next = Math.min(next, after);
        if (handled >= bound) {
          m.nextPurgeAt = Long.MIN_VALUE; // more may be due: the next tick goes on
          return handled;
        }
      }
    }
    m.nextPurgeAt = next == Long.MAX_VALUE ? now + retentionMs : next + retentionMs;
    return handled;
  }

  /** Deletes a task's record with its entries and count. */
  interface Forget {
    void forget(String id, TaskRecord record);
  }

  private void purgeOne(
      String id, Bytes key, long now, Forget forget, Failure failure, SchedulerMetrics metrics) {
    TaskRecord r;
    try {
      r = records.apply(id);
    } catch (StreamsException e) {
      throw e;
    } catch (RuntimeException e) {
      failure.failed(id, key, now, e);
      return;
    }
    if (r == null || !r.state().isTerminal() || !key.equals(TaskIndexKey.of(id, r))) {
      search.remove(key);
      metrics.count(SchedulerEvent.TIMER_STALE);
      return;
    }
    forget.forget(id, r);
    metrics.count(SchedulerEvent.PURGED);
  }
}
