package io.tasklane.scheduler.internal.lifecycle;

import java.util.NavigableSet;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.StreamsException;

/**
 * The turns of a saturated handler's waiting tasks ({@link Lanes}, docs/lanes.md): the {@link
 * Dispatcher}'s release of waiting tasks round-robin across lanes (and the handler's queue of tasks
 * without a key, as one more lane), and the release at once of a lane a finished holder freed while
 * its handler has room. Part of the {@link TaskLifecycle}; used on the stream task's thread only
 * (processing and punctuation).
 */
final class LaneTurns {
  /** The most waiting tasks one result releases ({@link #refill}). */
  static final int REFILL_MOST = 8;

  private final Dispatcher dispatcher;
  private final TaskLifecycle owner;
  private final TaskStore store;
  private final Engine engine;

  LaneTurns(Dispatcher dispatcher, TaskLifecycle owner, TaskStore store, Engine engine) {
    this.dispatcher = dispatcher;
    this.owner = owner;
    this.store = store;
    this.engine = engine;
  }

  /**
   * Releases up to {@code room} waiting tasks of {@code handler} round-robin over its ring of turns
   * ({@link LaneMemory}): one task of each lane with room, and one of its queue of tasks without a
   * key, in turn, so that a key with a million tasks waiting takes one turn like a key with one. A
   * lane whose key has a weight ({@code handlers.<name>.weights}) releases up to that many tasks in
   * its turn. Returns how many slots it used.
   */
  int releaseInTurn(String handler, int room, long now, Dispatcher.Failure failure) {
    LaneMemory lanes = store.lanes().memory();
    Lane unkeyed = LaneMemory.unkeyed(handler);
    if (store.queues().hasQueued(handler)) {
      lanes.addTurn(unkeyed);
    }
    int used = 0;
    while (used < room) {
      Lane turn = lanes.nextTurn(handler);
      if (turn == null) {
        break;
      }
      used++;
      if (turn.key() == null) {
        NavigableSet<Bytes> head = store.queues().head(handler);
        Bytes key = head.pollFirst();
        if (key == null) {
          continue; // the queue is empty: its turn leaves the ring
        }
        try {
          dispatcher.releaseOne(handler, key, now);
        } catch (StreamsException e) {
          throw e;
        } catch (RuntimeException e) {
          failure.failed(TaskIndexKey.taskId(key), key, now, e);
        }
        if (!head.isEmpty() || store.queues().hasQueued(handler)) {
          lanes.addTurn(turn);
        }
      } else {
        int weight = engine.controls().weight(handler, turn.key());
        boolean released = releaseFromLane(turn, now);
        for (int n = 1;
            released && n < weight && used < room && store.lanes().releasable(turn);
            n++) {
          used++; // a weighted lane's further tasks in this turn
          released = releaseFromLane(turn, now);
        }
        if (store.lanes().releasable(turn)) {
          lanes.addTurn(turn);
        }
      }
    }
    return used;
  }

  /**
   * Whether tasks of {@code handler} with a key wait for their turns: a lane in its ring. Then its
   * {@link DispatchWindow} is in force, so that a key that comes next finds a short pipe, not one a
   * single busy key filled up to {@code max-dispatched}.
   */
  boolean contended(String handler) {
    return store.lanes().memory().hasLaneTurns(handler);
  }

  /**
   * Releases the first waiting task of every lane a finished holder freed since the last call, at
   * once, while its handler has free slots and no queue (else the lane waits for its turn in the
   * ring, at the next tick). Called after each input that may end a holder (a result, a cancel, a
   * command); stream thread.
   */
  void releaseFreed(long now) {
    LaneMemory lanes = store.lanes().memory();
    for (Lane lane : lanes.drainFreed()) {
      String handler = lane.handler();
      if (engine.controls().paused(handler)
          || store.queues().freeSlots(handler, engine.settings().maxDispatched()) <= 0
          || store.queues().hasQueued(handler)) {
        continue;
      }
      releaseFromLane(lane, now);
    }
  }

  /**
   * While the sized window of the handler of the result just applied is in force ({@link
   * DispatchWindow}), fills its free slots from its waiting tasks in turn at once, not at the next
   * tick: the window keeps no attempts in reserve for the time between two ticks. Called after each
   * input; stream thread.
   */
  void refill(long now, Dispatcher.Failure failure) {
    FlowControlQueues queues = store.queues();
    String handler = queues.takeReturned();
    if (handler == null || !queues.sized(handler) || engine.controls().paused(handler)) {
      return;
    }
    int room = Math.min(REFILL_MOST, queues.freeSlots(handler, engine.settings().maxDispatched()));
    if (room > 0 && (store.lanes().memory().hasLaneTurns(handler) || queues.hasQueued(handler))) {
      releaseInTurn(handler, room, now, failure);
    }
  }

  /**
   * Dispatches the first task waiting in {@code lane} when the lane has room; an entry whose record
   * no longer waits under it is dropped (stale), one whose release throws makes its task DEAD.
   * Returns whether a task left the lane for dispatch.
   */
  private boolean releaseFromLane(Lane lane, long now) {
    Lanes lanes = store.lanes();
    Bytes key = lanes.firstWaiting(lane);
    if (key == null) {
      return false;
    }
    String id = lane.idOf(key);
    try {
      TaskRecord previous = store.get(id);
      if (previous == null
          || previous.timerKind() != TimerKind.LANE
          || previous.timerAt() != lane.seqOf(key)
          || !lane.equals(Lane.of(previous))) {
        lanes.dropWaiting(lane, key);
        engine.metrics().count(SchedulerEvent.TIMER_STALE);
        return false;
      }
      TaskRecord.Edit e = previous.edit();
      dispatcher.dispatchOrPark(e, now, true, true);
      owner.commit(id, previous, e);
      return true;
    } catch (StreamsException e) {
      throw e;
    } catch (RuntimeException e) {
      lanes.dropWaiting(lane, key);
      owner.timers.poisoned(id, now, e);
      return false;
    }
  }
}
