package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

/**
 * Checks the lanes of a stream task against its task records when the stream task opens, once,
 * before anything else uses them ({@link Lanes}). Under at-least-once a kill -9 can keep the last
 * writes of the task store and lose the lanes store's, or the other way round: a holder whose
 * record no longer holds its lane is dropped; a holder whose record went back to waiting in the
 * lane (its dispatch was lost with it) is dropped and its waiting entry written back, so it goes
 * again first; a DISPATCHED task that its lane lacks is made a holder again ({@link
 * #holdDispatched}, from the load count's pass over the DISPATCHED records), and so is a RETRYING
 * or blocked DEAD task of an ordered lane found by the record pass after the start ({@link
 * #rehold}). Fills the rings of turns of the stream task's {@link LaneMemory}. Used on the stream
 * task's thread only.
 */
final class LaneRepair {
  private final Lanes lanes;
  private final LaneStore store;
  private final Function<String, TaskRecord> records;

  LaneRepair(Lanes lanes, LaneStore store, Function<String, TaskRecord> records) {
    this.lanes = lanes;
    this.store = store;
    this.records = records;
  }

  /** Checks every lane's holders and fills {@code memory}'s rings of turns. */
  void open(LaneMemory memory) {
    for (KeyValue<Lane, LaneHead> kv : store.heads()) {
      Lane lane = kv.key;
      List<String> kept = new ArrayList<>(kv.value.holders.size());
      for (String id : kv.value.holders) {
        TaskRecord r = readable(id);
        if (r != null && lane.equals(Lane.of(r)) && r.timerKind() == TimerKind.LANE) {
          lanes.reassert(id, r); // it went back to waiting: first again, by its place
        } else if (r != null && lanes.stillHolds(r, lane)) {
          kept.add(id);
        }
      }
      LaneHead head = store.head(lane); // the reassert may have changed it
      if (head == null) {
        continue;
      }
      head.holders.retainAll(kept);
      store.write(lane, head);
      if (head.waiting > 0 && head.holders.size() < lanes.limit(lane)) {
        memory.addTurn(lane);
      }
    }
  }

  /**
   * A DISPATCHED record of a lane task found when the stream task opens: it runs, so it holds its
   * lane even if the write that made it a holder was lost.
   */
  void holdDispatched(String id, TaskRecord r) {
    Lane lane = Lane.of(r);
    if (lane == null
        || lanes.limit(lane) == HandlerControls.UNLIMITED
        || r.state() != TaskState.DISPATCHED) {
      return;
    }
    addHolder(lane, id);
  }

  /** Makes task {@code id} a holder of {@code lane} unless it is one. */
  void addHolder(Lane lane, String id) {
    LaneHead head = store.head(lane);
    if (head == null) {
      head = new LaneHead();
    }
    if (!head.holders.contains(id)) {
      head.holders.add(id);
      store.write(lane, head);
    }
  }

  /**
   * A record of an ordered lane's task that has run and still holds its lane (DISPATCHED, RETRYING,
   * or DEAD under {@code BLOCK}) but that the lane lacks as a holder, because a kill -9 kept the
   * record and lost the lanes write: made a holder again, so that the lane's next task keeps
   * waiting. Called for every record by the pass of {@link TimerRepair} after a (re)start and for a
   * replayed input. A task that never ran (DEAD before its first dispatch) never held its lane and
   * is left out.
   */
  void rehold(String id, TaskRecord r, Lane lane) {
    if (lane == null
        || !lane.ordered()
        || r.history().isEmpty()
        || (r.state() != TaskState.RETRYING
            && r.state() != TaskState.DEAD
            && r.state() != TaskState.DISPATCHED)
        || !lanes.stillHolds(r, lane)) {
      return;
    }
    addHolder(lane, id);
  }

  /**
   * A record of a task waiting in {@code lane} ({@link Lanes#reassert}): writes its waiting entry
   * back when a crash lost it, and counts the lane's waiting tasks again when the lane no longer
   * counts it (its head was lost, or emptied while entries were left), so that its turn comes.
   */
  void rewait(String id, TaskRecord r, Lane lane, LaneMemory memory) {
    Bytes key = lane.waitKey(r.timerAt(), id);
    boolean entry = store.hasWaiting(key);
    LaneHead head = store.head(lane);
    if (entry && head != null && head.waiting > 0) {
      return;
    }
    if (head == null) {
      head = new LaneHead();
    }
    if (entry) {
      LaneStore.Count count = store.count(lane);
      head.waiting = Math.max(head.waiting, count.waiting());
      head.nextSeq = Math.max(head.nextSeq, count.nextSeq());
    } else {
      store.putWaiting(key);
      head.waiting++;
    }
    head.nextSeq = Math.max(head.nextSeq, r.timerAt() + 1);
    memory.releasedFrom.computeIfPresent(lane, (l, at) -> Math.min(at, r.timerAt()));
    store.write(lane, head);
    memory.addTurn(lane);
  }

  private TaskRecord readable(String id) {
    try {
      return records.apply(id);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
