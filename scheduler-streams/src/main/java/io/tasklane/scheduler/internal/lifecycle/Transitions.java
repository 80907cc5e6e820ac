package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.ControlCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.core.UniqueRelease;
import io.tasklane.core.UniqueUntil;
import io.tasklane.core.Wire;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The edits every input of the {@link TaskLifecycle} shares (docs/scheduler-streams.md, state
 * machine):
 *
 * <ul>
 *   <li>{@link #schedule}: PENDING or RETRYING with a due timer, or handed to the {@link
 *       Dispatcher} at once when due (DISPATCHED, NO_HANDLER, or queued for a slot);
 *   <li>{@link #fail}: a failed attempt, RETRYING after the task's backoff, or DEAD when its
 *       attempts are used up;
 *   <li>{@link #dead}: DEAD, the last dispatch on the handler's DLT;
 *   <li>{@link #finish}: a terminal state (SUCCEEDED, DEAD, CANCELLED), kept for the retention
 *       ({@link FinishedPurge}; a task without an envelope by a purge timer), waiters told ({@link
 *       #notifyWaiters}), a unique window that ends with the task released ({@link UniqueRelease}),
 *       and the {@link FinishListener} told (a schedule fire's schedule).
 * </ul>
 *
 * <p>A transition edits a {@link TaskRecord.Edit} and forwards records; it never writes a store:
 * the {@link TaskLifecycle} stores the result, so the records and the stores go out in the same
 * commit. One instance per stream task, part of its lifecycle; used on its stream thread only
 * (processing and punctuation).
 */
public final class Transitions {
  private static final Logger LOG = LoggerFactory.getLogger(Transitions.class);

  /**
   * Told when a task reaches a terminal state, in the transition's step (stream thread): the
   * schedules learn that a fire's task finished.
   */
  @FunctionalInterface
  public interface FinishListener {
    /**
     * Task {@code id} ({@code task}: its envelope, null for a placeholder) reached {@code state};
     * {@code here}: the listener may apply it in this stream task at once, else it must go through
     * a topic (an admission may run inside the very schedule's fire).
     */
    void finished(
        TaskEnvelope task, String id, TaskState state, String reason, long now, boolean here);

    /** Tells no one. */
    FinishListener NONE = (task, id, state, reason, now, here) -> {};
  }

  private final Engine engine;
  private final Outputs out;
  private final Dispatcher dispatcher;
  private FinishListener finished = FinishListener.NONE;

  Transitions(Engine engine, Outputs out, Dispatcher dispatcher) {
    this.engine = engine;
    this.out = out;
    this.dispatcher = dispatcher;
  }

  /** Who is told of finished tasks from now on (set once, when the schedules open). */
  public void onFinished(FinishListener listener) {
    this.finished = listener;
  }

  /** Tells the {@link FinishListener} that task {@code id} is (or was already) in {@code state}. */
  void told(TaskEnvelope task, String id, TaskState state, String reason, long now, boolean here) {
    finished.finished(task, id, state, reason, now, here);
  }

  /**
   * Makes the task {@code state} due at {@code dueAt}: dispatched now if due or a schedule fire
   * sent ahead ({@link #sentAhead}), else a timer.
   */
  void schedule(TaskRecord.Edit e, TaskState state, long dueAt, long now) {
    e.state = state;
    e.probes.clear();
    e.dueAt = dueAt;
    e.updatedAt = now;
    if (dueAt <= now || sentAhead(e, now)) {
      dispatcher.dispatchOrPark(e, now);
    } else {
      e.timer(dueAt, TimerKind.DUE);
    }
  }

  /**
   * A new schedule fire's task, due within {@code schedule-lead}, is dispatched at once with its
   * instant as {@code notBefore} when every live worker of its handler holds such dispatches: the
   * worker starts it at the instant, so the fires of one instant do not leave this stream thread
   * one after another at that instant. Retries and other delayed tasks wait for their timer.
   */
  private boolean sentAhead(TaskRecord.Edit e, long now) {
    return e.state == TaskState.PENDING
        && e.attempt == 0
        && e.dueAt - now <= engine.settings().scheduleLeadMs()
        && e.task.headers().containsKey(TaskHeaders.FIRE_TIME)
        && engine.workers().holdDispatches(e.task.handler());
  }

  /** A failed attempt: RETRYING with the task's backoff, or DEAD when attempts are used up. */
  void fail(TaskRecord.Edit e, String id, ErrorInfo error, long now) {
    e.failures++;
    e.lastError = error;
    if (e.failures >= e.task.maxAttempts()) {
      dead(
          e,
          id,
          error,
          "attempts exhausted (" + e.failures + " of " + e.task.maxAttempts() + ")",
          now);
      return;
    }
    RetryPolicy backoff = e.task.backoff();
    long delay = backoff.delayMs(e.failures, engine.random().get());
    schedule(e, TaskState.RETRYING, now + Math.max(0, delay), now);
  }

  /** DEAD: a record on the handler's DLT (when that topic exists) and waiters told. */
  void dead(TaskRecord.Edit e, String id, ErrorInfo error, String reason, long now) {
    e.lastError = error != null ? error : e.lastError;
    finish(e, id, TaskState.DEAD, reason, now);
    engine.metrics().count(SchedulerEvent.DEAD);
    if (e.task == null) {
      return;
    }
    String dlt = engine.topics().handlerDlt(e.task.handler());
    if (engine.handlerTopics().exists(dlt)) {
      long dispatchedAt =
          e.history.isEmpty() ? 0 : e.history.get(e.history.size() - 1).dispatchedAt();
      Dispatch last =
          new Dispatch(
              Wire.VERSION, e.task, e.attempt, e.deadline, e.task.routingKey(), dispatchedAt);
      out.deadLetter(last, e.lastError, reason, now);
    } else {
      LOG.warn("task {} is DEAD ({}); no DLT topic {}, kept in the store only", id, reason, dlt);
      engine.metrics().count(SchedulerEvent.DLT_MISSING);
    }
  }

  /**
   * A terminal state: kept for the retention window, then purged ({@link FinishedPurge}; a record
   * without an envelope, which has no search entry, by its purge timer); waiters are told.
   */
  void finish(TaskRecord.Edit e, String id, TaskState state, String reason, long now) {
    e.state = state;
    e.probes.clear();
    e.reason = reason;
    e.finishedAt = now;
    e.updatedAt = now;
    if (e.task == null) {
      e.timer(now + engine.settings().retentionMs(), TimerKind.PURGE);
    } else {
      e.noTimer(); // forgotten after the retention through its search entry (FinishedPurge)
    }
    notifyWaiters(e, id, state, reason, now);
    releaseUnique(e.task, id, state, now);
    finished.finished(e.task, id, state, reason, now, true);
  }

  /**
   * Announces the end of a task whose unique window ends with it ({@link UniqueUntil}) on {@code
   * <ns>.unique-releases}, where the relay frees the window.
   */
  private void releaseUnique(TaskEnvelope task, String id, TaskState state, long now) {
    UniqueUntil until = task == null ? null : task.options().uniqueUntilOrNull();
    if (until != null && task.key() != null && until.releasedBy(state)) {
      out.uniqueRelease(UniqueRelease.of(id, task.handler(), task.key(), state, now), now);
      engine.metrics().count(SchedulerEvent.UNIQUE_RELEASED);
    }
  }

  /** Answers every waiter of this task with {@code dependency-done} and forgets them. */
  void notifyWaiters(TaskRecord.Edit e, String id, TaskState state, String reason, long now) {
    List<Waiter> waiters = List.copyOf(e.waiters);
    e.waiters.clear();
    for (Waiter w : waiters) {
      out.control(w.routingKey(), ControlCommand.DependencyDone.of(w.id(), id, state, reason), now);
    }
  }
}
