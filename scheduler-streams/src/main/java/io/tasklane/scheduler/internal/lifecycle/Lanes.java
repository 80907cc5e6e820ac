package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The lanes of one stream task (docs/lanes.md): which tasks hold each {@link Lane} and which wait
 * in it, in the lanes store ({@link Stores#LANES}), and the rings of turns in its {@link
 * LaneMemory}.
 *
 * <p>A task of a lane that falls due asks for a place ({@link #take}): it may go when it already
 * holds the lane, or when nothing waits in the lane before it, the lane has room (fewer holders
 * than its limit) and its handler is not saturated; else it joins the lane ({@link #join}: its
 * record keeps the place as a {@link TimerKind#LANE} timer, and the store a waiting entry). Each
 * write of a task record tells the lanes ({@link #moved}), so they follow the records: a waiting
 * entry comes and goes with its record's LANE timer, and a holder leaves its lane when its record
 * no longer holds it (a keyed lane: when its attempt ends; an ordered lane: when it is terminal, or
 * under {@link LanePolicy#BLOCK} when it is SUCCEEDED or CANCELLED or forgotten). A lane that a
 * holder left and in which a task waits is freed: the {@link Dispatcher} releases its first waiting
 * task at once when the handler has room, else its turn comes in the ring.
 *
 * <p>Crash safety under at-least-once, where the task records and the lanes store are separate
 * changelogs: {@link LaneRepair} checks the lanes against the records after the stream task opens
 * and gives a lost place back to a holder the record pass after the start finds, or whose retry
 * asks for it; a waiting entry whose record no longer waits under it is stale and dropped when met.
 * So no task runs while an earlier task of its ordered lane still holds it, and the order of the
 * waiting tasks is the order of their places. Used on the stream task's thread only.
 */
final class Lanes {
  private final LaneStore store;
  private final LaneRepair repair;
  private final Supplier<LaneMemory> memory;
  private final HandlerControls controls;
  private final Runnable countLoad;

  /**
   * @param records reads a task record by id (may throw on one that does not decode)
   * @param memory the stream task's lane memory, looked up at each use
   * @param countLoad counts the handlers' load, which opens the lanes ({@link #open}) once
   */
  Lanes(
      KeyValueStore<Bytes, byte[]> store,
      Function<String, TaskRecord> records,
      Supplier<LaneMemory> memory,
      HandlerControls controls,
      Runnable countLoad) {
    this.store = new LaneStore(store);
    this.repair = new LaneRepair(this, this.store, records);
    this.memory = memory;
    this.controls = controls;
    this.countLoad = countLoad;
  }

  /** The lanes of the stream task whose stores {@code tasks} opened from {@code context}. */
  static Lanes of(ProcessingContext context, TaskStore tasks, HandlerControls controls) {
    return new Lanes(
        context.getStateStore(Stores.LANES),
        tasks::get,
        () -> tasks.memory().lanes,
        controls,
        () -> tasks.queues().countLoad());
  }

  /** How many tasks may hold {@code lane} at once. */
  int limit(Lane lane) {
    return lane.ordered() ? 1 : controls.maxPerKey(lane.handler());
  }

  /**
   * Whether {@code lane}'s holders are kept: an ordered lane's always, a keyed lane's while its
   * handler has a limit per key (without one a keyed lane only shares turns fairly).
   */
  private boolean tracked(Lane lane) {
    return limit(lane) != HandlerControls.UNLIMITED;
  }

  /** Whether task {@code id} holds {@code lane}. */
  boolean holds(Lane lane, String id) {
    opened();
    LaneHead head = store.head(lane);
    return head != null && head.holders.contains(id);
  }

  /**
   * Whether task {@code id} of {@code lane}, due now, may be dispatched; if so it holds the lane
   * from now on. {@code saturated}: its handler has no room, so it must wait its turn; {@code
   * first}: it is the first task waiting in the lane (its turn came), so the tasks waiting in the
   * lane do not hold it back; {@code retrying}: a retry of an ordered lane's task, which holds it.
   */
  boolean take(Lane lane, String id, boolean saturated, boolean first, boolean retrying) {
    opened();
    LaneHead head = store.head(lane);
    if (head != null && head.holders.contains(id)) {
      return true;
    }
    if (retrying) { // an ordered lane's retry holds it, though a kill -9 may have lost its entry
      repair.addHolder(lane, id);
      return true;
    }
    if (saturated || (!first && head != null && head.waiting > 0)) {
      return false;
    }
    if (!tracked(lane)) {
      return true;
    }
    if (head == null) {
      head = new LaneHead();
    }
    if (head.holders.size() >= limit(lane)) {
      return false;
    }
    head.holders.add(id);
    store.write(lane, head);
    return true;
  }

  /**
   * Task of {@code lane} joins it to wait: returns its place (the record's LANE timer), after every
   * task that joined before. Its waiting entry is written with the record ({@link #moved}).
   */
  long join(Lane lane) {
    opened();
    LaneHead head = store.head(lane);
    if (head == null) {
      head = new LaneHead();
    }
    long seq = head.nextSeq++;
    head.waiting++;
    store.write(lane, head);
    // a lane emptied by a dropped entry lost its head and counts its places from 0 again: the
    // place released last must not lie past the new task's, or a later task would go before it
    memory.get().releasedFrom.computeIfPresent(lane, (l, at) -> Math.min(at, seq));
    if (head.holders.size() < limit(lane)) {
      memory.get().addTurn(lane);
    }
    return seq;
  }

  /**
   * The record of task {@code id} moves from {@code previous} (null when new) to {@code next} (null
   * when forgotten): its waiting entry follows its LANE timer, and it leaves a lane it held when
   * {@code next} no longer holds it ({@link #stillHolds}).
   */
  void moved(String id, TaskRecord previous, TaskRecord next) {
    Lane was = Lane.of(previous);
    Lane is = Lane.of(next);
    if (was == null && is == null) {
      return;
    }
    opened();
    boolean wasWaiting = was != null && previous.timerKind() == TimerKind.LANE;
    boolean isWaiting = is != null && next.timerKind() == TimerKind.LANE;
    boolean same = wasWaiting && isWaiting && previous.timerAt() == next.timerAt();
    if (wasWaiting && !same) {
      store.deleteWaiting(was.waitKey(previous.timerAt(), id));
      LaneHead head = store.head(was);
      if (head != null && head.waiting > 0) {
        head.waiting--;
        store.write(was, head);
      }
      if (head == null || head.waiting <= 0) {
        memory.get().releasedFrom.remove(was);
      }
    }
    if (isWaiting && !same) {
      store.putWaiting(is.waitKey(next.timerAt(), id));
    }
    if (was != null && !stillHolds(next, was)) {
      leave(was, id);
    }
  }

  /**
   * Writes {@code r}'s waiting entry, or its place as a holder, again when a crash lost it ({@link
   * TimerRepair}, {@link LaneRepair#rehold}).
   */
  void reassert(String id, TaskRecord r) {
    Lane lane = Lane.of(r);
    if (lane == null || r.timerKind() != TimerKind.LANE) {
      repair.rehold(id, r, lane);
      return;
    }
    opened();
    repair.rewait(id, r, lane, memory.get());
  }

  /** Whether {@code next}, the record of a task of {@code lane}, still holds it. */
  boolean stillHolds(TaskRecord next, Lane lane) {
    if (next == null || next.task() == null || next.state() == null) {
      return false;
    }
    if (next.timerKind() == TimerKind.LANE || !lane.equals(Lane.of(next))) {
      return false;
    }
    if (!lane.ordered()) { // a task waiting for its rate limit's slot has passed its lane
      return next.state() == TaskState.DISPATCHED || next.timerKind() == TimerKind.RATE;
    }
    return switch (next.state()) {
      case SUCCEEDED, CANCELLED, WAITING -> false;
      case DEAD -> controls.onDead(lane.handler()) == LanePolicy.BLOCK;
      default -> true;
    };
  }

  private void leave(Lane lane, String id) {
    LaneHead head = store.head(lane);
    if (head == null || !head.holders.remove(id)) {
      return;
    }
    store.write(lane, head);
    if (head.waiting > 0 && head.holders.size() < limit(lane)) {
      LaneMemory m = memory.get();
      m.addTurn(lane);
      m.freed(lane);
    }
  }

  /**
   * The first task waiting in {@code lane} when the lane has room for it (its waiting key), else
   * null; a lane found empty gets its waiting count set to zero.
   */
  Bytes firstWaiting(Lane lane) {
    LaneHead head = store.head(lane);
    if (!releasable(lane, head)) {
      return null;
    }
    Map<Lane, Long> from = memory.get().releasedFrom;
    Bytes first = store.firstWaiting(lane, from.getOrDefault(lane, 0L));
    if (first != null) {
      from.put(lane, lane.seqOf(first));
      return first;
    }
    from.remove(lane);
    head.waiting = 0;
    store.write(lane, head);
    return null;
  }

  /** Whether a task of {@code lane} may still be released now: one waits, and it has room. */
  boolean releasable(Lane lane) {
    return releasable(lane, store.head(lane));
  }

  private boolean releasable(Lane lane, LaneHead head) {
    return head != null && head.waiting > 0 && head.holders.size() < limit(lane);
  }

  /** Drops a waiting entry whose record no longer waits under it (stale, or its task failed). */
  void dropWaiting(Lane lane, Bytes key) {
    store.dropWaiting(lane, key);
    LaneHead head = store.head(lane);
    if (head == null || head.waiting <= 0) {
      memory.get().releasedFrom.remove(lane); // as when its last waiting task leaves (moved)
    }
  }

  /** The stream task's lane memory (rings of turns, freed lanes). */
  LaneMemory memory() {
    opened();
    return memory.get();
  }

  /**
   * Once per opening of the stream task, before any other use: checks the lanes against the records
   * and fills the rings of turns ({@link LaneRepair}). Called by the load count ({@link
   * FlowControlQueues}).
   */
  void open() {
    LaneMemory m = memory.get();
    if (!m.opened) {
      m.opened = true;
      repair.open(m);
    }
  }

  /** A DISPATCHED record found when the stream task opens ({@link LaneRepair#holdDispatched}). */
  void holdDispatched(String id, TaskRecord r) {
    repair.holdDispatched(id, r);
  }

  private void opened() {
    if (!memory.get().opened) {
      countLoad.run();
      open(); // when the load was counted before the lanes existed in this memory
    }
  }
}
