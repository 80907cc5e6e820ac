package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Bytes;

/**
 * Flow control of one stream task: the per-handler queues (the queued groups of the search index,
 * {@link TaskIndexKey}) and the per-handler {@link HandlerLoad} that decides whether a due task is
 * dispatched or queued. The load is counted the first time it is asked after the stream task's
 * processors open: the queued entries of the search index (after moving there those an earlier
 * version kept in the due index), then the DISPATCHED entries of the search index ({@link
 * TaskIndex}) whose record is DISPATCHED under a deadline with that very entry (a stale entry left
 * by a crash does not take a slot); each of those gives its deadline to the stream task's {@link
 * DeadlineTimers}. That range holds the dispatched tasks only, so the count after a restart or a
 * failover costs the same with 10 tasks pending or 10 million (a range over the due index's time
 * entries, as before, read every pending task's timer). Used on the stream task's thread only.
 */
final class FlowControlQueues {
  /** Queue keys read per range: one copy of the cached keys per batch instead of one per tick. */
  static final int HEAD_BATCH = 2_000;

  /** The fewest attempts beyond its window a handler may have out for tasks passing its queue. */
  static final int RESERVE_MIN = 2;

  private final DueIndex index;
  private final TaskIndex search;
  private final Function<String, TaskRecord> records;
  private final Supplier<HandlerLoad> load;
  private final Supplier<DeadlineTimers> deadlines;
  private final DeferredWrites held;
  private final Lanes lanes;
  private final Map<String, NavigableSet<Bytes>> heads = new HashMap<>();
  private final Map<String, Integer> lastPriority = new HashMap<>();
  private String returnedHandler;

  /**
   * @param records reads a task record by id (may throw on a record that does not decode)
   * @param load the stream task's load, looked up at each use
   * @param deadlines the stream task's deadlines, given those of the attempts counted
   */
  FlowControlQueues(
      DueIndex index,
      TaskIndex search,
      Function<String, TaskRecord> records,
      Supplier<HandlerLoad> load,
      Supplier<DeadlineTimers> deadlines,
      DeferredWrites held,
      Lanes lanes) {
    this.lanes = lanes;
    this.held = held;
    this.index = index;
    this.search = search;
    this.records = records;
    this.load = load;
    this.deadlines = deadlines;
  }

  /** Counts the load from the index unless it is counted already. */
  void countLoad() {
    count(load.get());
  }

  /**
   * True when the due task {@code e} must wait in its handler's queue at {@code now}: the handler
   * has its window ({@link DispatchWindow}, {@code max-dispatched} at most) of attempts out, or
   * (unless the task leaves the queue right now) others queued. But it passes the queue ({@link
   * #mayPass}, counted) unless it leaves the queue, is of a lane or of a rate limit ({@code
   * limited}: it would wait for its slot uncounted), or lanes of its handler wait for their turns.
   */
  boolean mustQueue(
      TaskRecord.Edit e, long now, boolean fromQueue, boolean limited, Engine engine) {
    String handler = e.task.handler();
    HandlerLoad l = counted();
    if (l.dispatched(handler) < l.limit(handler, engine.settings().maxDispatched())
        && (fromQueue || l.queued(handler) == 0)) {
      return false;
    }
    if (fromQueue
        || limited
        || Lane.of(e.task) != null
        || lanes.memory().hasLaneTurns(handler)
        || !mayPass(e, now, engine.settings())) {
      return true;
    }
    engine.metrics().count(SchedulerEvent.PRIORITY_PASSED);
    if (engine.settings().adaptiveWindow()) {
      contended(e.task.handler(), now); // as it would when queued: the window stays in force
    }
    return false;
  }

  /**
   * True when {@code e}, of a priority above the default, would head the queue ({@link QueueRank})
   * and the attempts out stay within the window's {@link #reserve}, {@code max-dispatched} at most.
   */
  private boolean mayPass(TaskRecord.Edit e, long now, EngineSettings settings) {
    int priority = e.task.options().priorityOrDefault();
    if (priority <= TaskOptions.DEFAULT_PRIORITY) {
      return false;
    }
    String handler = e.task.handler();
    HandlerLoad l = counted();
    int max = settings.maxDispatched();
    int limit = l.limit(handler, max);
    if (l.dispatched(handler) >= Math.min(max, limit + reserve(limit))) {
      return false;
    }
    if (l.queued(handler) == 0) {
      return true;
    }
    NavigableSet<Bytes> head = head(handler);
    long at = QueueRank.timerAt(now, e.dueAt, priority, settings.priorityAgingMs());
    TaskState state = e.state == TaskState.NO_HANDLER ? TaskState.PENDING : e.state;
    Bytes key = TaskIndexKey.of(state, handler, true, at, e.task.id());
    return head.isEmpty() || TaskIndex.QUEUE_ORDER.compare(key, head.first()) < 0;
  }

  /** Attempts beyond a window of {@code limit} that tasks passing the queue may have out. */
  static int reserve(int limit) {
    return Math.max(RESERVE_MIN, limit / 8);
  }

  /** Whether tasks of {@code handler} without a lane wait in its queue. */
  boolean hasQueued(String handler) {
    return counted().queued(handler) > 0;
  }

  /** How many more attempts of {@code handler} may go out (zero or less: none). */
  int freeSlots(String handler, int maxDispatched) {
    HandlerLoad l = counted();
    return l.limit(handler, maxDispatched) - l.dispatched(handler);
  }

  /**
   * An attempt of {@code handler} returned at {@code now}: {@code onTheWayMs} from its dispatch to
   * its handler's start, {@code runMs} in its handler, {@code backMs} from its end until now (the
   * result's way back, the scheduler's own lag included). Sizes the handler's {@link
   * DispatchWindow}.
   */
  void returned(String handler, long now, long onTheWayMs, long runMs, long backMs) {
    load.get().window(handler).returned(now, onTheWayMs, runMs, backMs);
    returnedHandler = handler;
  }

  /** The handler of the result measured last ({@link #returned}), once; null when none since. */
  String takeReturned() {
    String h = returnedHandler;
    returnedHandler = null;
    return h;
  }

  /** Whether the sized {@link DispatchWindow} of {@code handler} is in force. */
  boolean sized(String handler) {
    return load.get().sized(handler);
  }

  /**
   * Tasks of {@code handler} with a key wait for their turns at {@code now}: its {@link
   * DispatchWindow} is in force for a while.
   */
  void contended(String handler, long now) {
    load.get().window(handler).contended(now);
  }

  /**
   * The handlers with a queue: read from the index when {@code fromIndex} (the truth, but a range
   * over the cached store copies the cached keys in it first), else from the counts (a hint; a
   * wrong one never strands a queue since the index is read now and then).
   */
  List<String> queuedHandlers(boolean fromIndex) {
    return fromIndex ? search.queuedHandlers() : load.get().queuedHandlers();
  }

  /**
   * The batch of {@code handler}'s queue keys at hand, in queue order ({@link QueueRank}), read
   * from the index when the last batch is used up. A task queued meanwhile joins it when it sorts
   * within it ({@link #entered}), else waits for the next batch. Empty when the queue is empty;
   * then the handler's queued count is forgotten too.
   */
  NavigableSet<Bytes> head(String handler) {
    NavigableSet<Bytes> head =
        heads.computeIfAbsent(handler, h -> new TreeSet<>(TaskIndex.QUEUE_ORDER));
    if (head.isEmpty()) {
      search.readQueue(handler, HEAD_BATCH, head);
    }
    if (head.isEmpty()) {
      load.get().queueEmpty(handler);
      heads.remove(handler);
    }
    return head;
  }

  /**
   * A task of {@code priority} entered {@code handler}'s queue under {@code key} at {@code now}. It
   * joins the batch at hand when it sorts within it (a task of a higher priority than those
   * queued), so that it goes out at the next free slot. A task of a priority other than the
   * default, or other than the last one queued for the handler, puts its {@link DispatchWindow} in
   * force (when {@code sizeWindow}), so that the queue, where the order is decided, is not moved
   * into the handler topic.
   */
  void entered(String handler, Bytes key, int priority, long now, boolean sizeWindow) {
    NavigableSet<Bytes> head = heads.get(handler);
    if (head != null && !head.isEmpty() && TaskIndex.QUEUE_ORDER.compare(key, head.last()) < 0) {
      head.add(key);
    }
    Integer last = lastPriority.put(handler, priority);
    if (sizeWindow
        && (priority != TaskOptions.DEFAULT_PRIORITY || (last != null && last != priority))) {
      contended(handler, now);
    }
  }

  /**
   * True when {@code r}, the record of task {@code id}, still waits in its queue under {@code key}.
   */
  static boolean isQueuedUnder(TaskRecord r, String id, Bytes key) {
    return r != null && r.timerKind() == TimerKind.QUEUED && key.equals(TaskIndexKey.of(id, r));
  }

  private HandlerLoad counted() {
    HandlerLoad l = load.get();
    count(l);
    return l;
  }

  private void count(HandlerLoad l) {
    if (l.counted()) {
      return;
    }
    lanes.open();
    moveLegacyQueues();
    search.forEachQueued(l::countQueued);
    search.forEachIn(
        TaskState.DISPATCHED,
        (id, key) -> {
          TaskRecord r = readable(id);
          if (r != null && key.equals(TaskIndexKey.of(id, r))) {
            countDispatched(l, id, r);
          }
        });
    held.forEach((id, r) -> countDispatched(l, id, r)); // written at the commit, not yet indexed
    l.markCounted();
  }

  private void countDispatched(HandlerLoad l, String id, TaskRecord r) {
    if (r != null
        && r.task() != null
        && r.state() == TaskState.DISPATCHED
        && r.timerKind() == TimerKind.DEADLINE) {
      l.countDispatched(r.task().handler());
      deadlines.get().add(r.timerAt(), id);
      lanes.holdDispatched(id, r);
    }
  }

  /**
   * Moves the queue entries an earlier version kept in the due index ({@code 0xFF ‖ handler ‖ 0x00
   * ‖ dueAt ‖ id}) to the search index's queued groups, in their due order, once per stream task
   * opening (the range is empty after the first): the task's PENDING or RETRYING search entry is
   * replaced by its queued one and the due-index key deleted. An entry whose record no longer waits
   * under it is only deleted.
   */
  private void moveLegacyQueues() {
    index.forEachLegacyQueueKey(
        (key, handler) -> {
          String id = DueIndexKey.queuedTaskId(key, handler);
          TaskRecord r = readable(id);
          if (r != null
              && r.task() != null
              && r.timerKind() == TimerKind.QUEUED
              && r.timerAt() == DueIndexKey.queuedDueAt(key, handler)) {
            search.remove(TaskIndexKey.of(r.state(), handler, false, r.updatedAt(), id));
            search.reassert(id, r);
          }
          index.remove(key);
        });
  }

  /** The record, or null when it cannot be read (its timer fails and is handled when it fires). */
  private TaskRecord readable(String id) {
    try {
      return records.apply(id);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
