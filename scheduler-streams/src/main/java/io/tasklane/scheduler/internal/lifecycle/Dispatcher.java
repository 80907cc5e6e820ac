package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskState;
import io.tasklane.core.Wire;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableSet;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.StreamsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hop "due → handler topic": a due task is sent to {@code <ns>.handler.<handler>} as a {@link
 * Dispatch} carrying a fresh nonce (kept in the task's record, {@link DispatchNonces}) and goes
 * DISPATCHED, or waits as NO_HANDLER while that topic does not exist, or waits in its handler's
 * queue ({@link FlowControlQueues}) while the handler has {@code max-dispatched} attempts out in
 * this partition; each tick the punctuator releases queued tasks into the free slots ({@link
 * #releaseQueued}). A paused handler's due tasks ({@link HandlerControls}) wait in its queue the
 * same way, and its queue is not released until it is resumed: the index scan never sees them
 * again, so a paused handler costs the other handlers nothing. Part of the {@link TaskLifecycle};
 * used on the stream task's thread (processing and punctuation); the dispatch record goes out with
 * the commit that stores the DISPATCHED record.
 */
public final class Dispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

  /** Every this many ticks the queues are found from the index, else from the counts. */
  private static final int INDEX_READ_EVERY = 50;

  /** What to do with a queue entry whose release threw. */
  interface Failure {
    void failed(String id, Bytes key, long now, RuntimeException error);
  }

  private final TaskLifecycle owner;
  private final TaskStore store;
  private final Engine engine;
  private final Outputs out;
  private final LaneTurns turns;
  final RateGate rates;
  final DispatchResend resends;
  private long ticks;

  Dispatcher(TaskLifecycle owner, TaskStore store, Engine engine, Outputs out) {
    this.owner = owner;
    this.store = store;
    this.engine = engine;
    this.out = out;
    this.turns = new LaneTurns(this, owner, store, engine);
    this.rates = new RateGate(engine, out);
    this.resends = new DispatchResend(engine, out);
  }

  /**
   * Releases the lanes freed since the last input at once, where there is room, and refills a sized
   * window the last result freed a slot of ({@link LaneTurns}).
   */
  void releaseFreed(long now) {
    turns.releaseFreed(now);
    turns.refill(now, owner.timers::poisonedQueued);
  }

  /**
   * Dispatches a due task; parks it as NO_HANDLER while its handler topic does not exist, or queues
   * it while its handler has {@code maxDispatched} attempts out (or others already queued).
   */
  void dispatchOrPark(TaskRecord.Edit e, long now) {
    dispatchOrPark(e, now, false, false);
  }

  /**
   * As {@link #dispatchOrPark(TaskRecord.Edit, long)}; {@code fromQueue} is true when the task
   * leaves its handler's queue, so it does not queue behind the others again; {@code laneTurn} is
   * true when the task is the first waiting in its lane and its turn came ({@link Lanes#take}). A
   * task of a lane ({@link Lane}) that may not go now waits in its lane, not in its handler's
   * queue, unless it holds the lane already (an ordered lane's retry), and then waits for a slot as
   * any task.
   */
  void dispatchOrPark(TaskRecord.Edit e, long now, boolean fromQueue, boolean laneTurn) {
    dispatchOrPark(e, now, fromQueue, laneTurn, 0, 0);
  }

  /**
   * As {@link #dispatchOrPark(TaskRecord.Edit, long, boolean, boolean)}; a task that may go asks
   * its rate limit for a slot first ({@link RateGate}), {@code turn} and {@code late} as it takes
   * them.
   */
  void dispatchOrPark(
      TaskRecord.Edit e, long now, boolean fromQueue, boolean laneTurn, long turn, long late) {
    String topic = engine.topics().handler(e.task.handler());
    e.updatedAt = now;
    boolean exists = engine.handlerTopics().exists(topic);
    boolean paused = engine.controls().paused(e.task.handler());
    // asking its rate limit again (turn > 0), a task passed its handler's window already
    boolean saturated =
        exists
            && (paused
                || (turn == 0
                    && store.queues().mustQueue(e, now, fromQueue, rates.limited(e.task), engine)));
    Lane lane = Lane.of(e.task);
    // A lane's place is taken before the topic is looked at: a task that waits for its handler
    // topic keeps its place in an ordered lane, so no later task of its key overtakes it.
    boolean retrying = lane != null && lane.ordered() && e.state == TaskState.RETRYING;
    if (lane != null && !store.lanes().take(lane, e.task.id(), saturated, laneTurn, retrying)) {
      if (e.state == TaskState.NO_HANDLER) {
        e.state = TaskState.PENDING;
      }
      if (e.timerKind != TimerKind.LANE) {
        e.timer(store.lanes().join(lane), TimerKind.LANE);
        engine.metrics().count(SchedulerEvent.LANE_WAIT);
      }
      return;
    }
    if (!exists) {
      if (e.state != TaskState.NO_HANDLER) {
        LOG.warn("task {}: handler topic {} does not exist; NO_HANDLER", e.task.id(), topic);
        engine.metrics().count(SchedulerEvent.NO_HANDLER);
      }
      e.state = TaskState.NO_HANDLER;
      e.timer(now + engine.settings().noHandlerRecheckMs(), TimerKind.DUE);
      return;
    }
    if (saturated) { // no lane, or it holds its lane already (take refuses others when saturated)
      if (e.state == TaskState.NO_HANDLER) {
        e.state = TaskState.PENDING;
      }
      queue(e, now);
      engine.metrics().count(paused ? SchedulerEvent.PAUSED_HELD : SchedulerEvent.QUEUED);
      return;
    }
    long rateWait = rates.waitUntil(e.task, now, turn, late);
    if (rateWait >= 0) {
      e.timer(rateWait, TimerKind.RATE);
      if (e.state == TaskState.NO_HANDLER) {
        e.state = TaskState.PENDING;
      }
      return;
    }
    send(e, now, topic);
  }

  /**
   * Dispatches {@code e}, which holds a slot of its rate limit starting at {@code slot}: the worker
   * starts it then, not before. It passed its lane and its handler's window when it asked.
   */
  void dispatchGranted(TaskRecord.Edit e, long now, long slot) {
    e.updatedAt = now;
    if (slot > now) {
      e.dueAt = slot;
    }
    String topic = engine.topics().handler(e.task.handler());
    if (!engine.handlerTopics().exists(topic)) { // gone since it asked: the slot goes unused
      e.state = TaskState.NO_HANDLER;
      e.timer(now + engine.settings().noHandlerRecheckMs(), TimerKind.DUE);
      return;
    }
    if (e.state == TaskState.NO_HANDLER) {
      e.state = TaskState.PENDING;
    }
    send(e, now, topic, rates.toleranceOf(e));
  }

  private void send(TaskRecord.Edit e, long now, String topic) {
    send(e, now, topic, null);
  }

  /** {@code tolerance}: the worker sends it back unstarted when that late for its slot. */
  private void send(TaskRecord.Edit e, long now, String topic, Long tolerance) {
    e.attempt++;
    // a schedule fire sent ahead (Transitions.schedule) starts at its instant, not now
    Long notBefore = e.dueAt > now ? e.dueAt : null;
    long start = notBefore == null ? now : notBefore;
    e.deadline = start + e.task.timeoutMs() + engine.settings().timeoutGraceMs();
    e.state = TaskState.DISPATCHED;
    e.timer(e.deadline, TimerKind.DEADLINE);
    e.addHistory(new AttemptEntry(e.attempt, now, 0, null, null, null));
    e.nonce = DispatchNonces.next();
    Dispatch dispatch =
        new Dispatch(
            Wire.VERSION,
            e.task,
            e.attempt,
            e.deadline,
            e.task.routingKey(),
            now,
            notBefore,
            e.nonce,
            notBefore != null ? tolerance : null);
    out.dispatch(dispatch, now, engine.spans().dispatched(dispatch, topic));
    if (notBefore != null) {
      engine.metrics().count(SchedulerEvent.DISPATCHED_AHEAD);
    }
    // A task enqueued as "run now" (dueAt in the past) counts from its creation instead.
    engine.metrics().dispatched(Math.max(0, now - Math.max(e.dueAt, e.task.createdAt())));
  }

  /**
   * Puts the task in its handler's queue, at its place by priority ({@link QueueRank}), and tells
   * the queues where it entered ({@link FlowControlQueues#entered}).
   */
  private void queue(TaskRecord.Edit e, long now) {
    int priority = e.task.options().priorityOrDefault();
    long agingMs = engine.settings().priorityAgingMs();
    e.timer(QueueRank.timerAt(now, e.dueAt, priority, agingMs), TimerKind.QUEUED);
    long at = QueueRank.queuedAt(e.timerAt, e.dueAt, e.updatedAt);
    store
        .queues()
        .entered(
            e.task.handler(),
            TaskIndexKey.of(e.state, e.task.handler(), true, at, e.task.id()),
            priority,
            now,
            engine.settings().adaptiveWindow());
  }

  /**
   * Dispatches up to {@code budget} queued tasks of handlers below {@code maxDispatched}, oldest
   * due first, starting with a different handler each tick so a small budget is shared in turn. A
   * queue entry whose release throws goes to {@code failure} (taken out of the queue so that it
   * cannot block the queue's head tick after tick). Returns how many entries it handled. Punctuator
   * only.
   */
  int releaseQueued(long now, int budget, Failure failure) {
    FlowControlQueues queues = store.queues();
    long tick = ticks++;
    List<String> handlers = queues.queuedHandlers(tick % INDEX_READ_EVERY == 0);
    LaneMemory lanes = store.lanes().memory();
    lanes.drainFreed(); // their turns are in the rings
    List<String> laneHandlers = lanes.handlersWithLaneTurns();
    if (!laneHandlers.isEmpty()) {
      handlers = new ArrayList<>(handlers);
      for (String h : laneHandlers) {
        if (!handlers.contains(h)) {
          handlers.add(h);
        }
      }
    }
    if (handlers.isEmpty()) {
      return 0;
    }
    Collections.rotate(handlers, -(int) (tick % handlers.size()));
    int max = engine.settings().maxDispatched();
    int released = 0;
    for (String handler : handlers) {
      if (engine.controls().paused(handler)) {
        continue; // held in its queue until resumed
      }
      if (engine.settings().adaptiveWindow() && turns.contended(handler)) {
        queues.contended(handler, now);
      }
      int room = Math.min(budget - released, queues.freeSlots(handler, max));
      if (room <= 0) {
        continue;
      }
      if (lanes.hasLaneTurns(handler)) {
        released += turns.releaseInTurn(handler, room, now, failure);
        continue;
      }
      NavigableSet<Bytes> head = queues.head(handler);
      for (int n = 0; n < room && !head.isEmpty(); n++, released++) {
        Bytes key = head.pollFirst();
        try {
          releaseOne(handler, key, now);
        } catch (StreamsException e) {
          throw e;
        } catch (RuntimeException e) {
          failure.failed(TaskIndexKey.taskId(key), key, now, e);
        }
      }
    }
    return released;
  }

  void releaseOne(String handler, Bytes key, long now) {
    String id = TaskIndexKey.taskId(key);
    TaskRecord previous = store.get(id);
    if (!FlowControlQueues.isQueuedUnder(previous, id, key)) {
      owner.removeQueueEntry(key);
      engine.metrics().count(SchedulerEvent.TIMER_STALE);
      return;
    }
    if (engine.settings().adaptiveWindow()
        && previous.task().options().priorityOrDefault() != TaskOptions.DEFAULT_PRIORITY) {
      store.queues().contended(handler, now); // a queue of priorities keeps the window sized
    }
    TaskRecord.Edit e = previous.edit().noTimer();
    dispatchOrPark(e, now, true, false);
    owner.commit(id, previous, e);
  }
}
