package io.tasklane.scheduler.internal;

import io.tasklane.core.ControlCommand;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskState;
import io.tasklane.core.Wire;
import java.util.List;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transitions every processor shares: schedule or dispatch, fail with backoff, go DEAD, finish
 * and tell waiters. One instance per processor per stream task; used on its stream thread only.
 */
final class TaskMachine {
  private static final Logger LOG = LoggerFactory.getLogger(TaskMachine.class);

  final TaskStore store;
  final Engine engine;
  final Outputs out;

  TaskMachine(ProcessorContext<String, Object> context, Engine engine) {
    this.store = new TaskStore(context, engine.loads());
    this.engine = engine;
    this.out = new Outputs(context);
  }

  /** Makes the task {@code state} due at {@code dueAt}: dispatched now if due, else a timer. */
  void schedule(TaskRecord.Edit e, TaskState state, long dueAt, long now) {
    e.state = state;
    e.probes.clear();
    e.dueAt = dueAt;
    e.updatedAt = now;
    if (dueAt <= now) {
      dispatchOrPark(e, now);
    } else {
      e.timer(dueAt, TimerKind.DUE);
    }
  }

  /**
   * Dispatches a due task; parks it as NO_HANDLER while its handler topic does not exist, or queues
   * it while its handler has {@code maxDispatched} attempts out (or others already queued).
   */
  void dispatchOrPark(TaskRecord.Edit e, long now) {
    dispatchOrPark(e, now, false);
  }

  /**
   * As {@link #dispatchOrPark(TaskRecord.Edit, long)}; {@code fromQueue} is true when the task
   * leaves its handler's queue, so it does not queue behind the others again.
   */
  void dispatchOrPark(TaskRecord.Edit e, long now, boolean fromQueue) {
    String topic = engine.topics().handler(e.task.handler());
    e.updatedAt = now;
    if (!engine.handlerTopics().exists(topic)) {
      if (e.state != TaskState.NO_HANDLER) {
        LOG.warn("task {}: handler topic {} does not exist; NO_HANDLER", e.task.id(), topic);
        engine.metrics().count(SchedulerEvent.NO_HANDLER);
      }
      e.state = TaskState.NO_HANDLER;
      e.timer(now + engine.settings().noHandlerRecheckMs(), TimerKind.DUE);
      return;
    }
    if (mustQueue(e.task.handler(), fromQueue)) {
      if (e.state == TaskState.NO_HANDLER) {
        e.state = TaskState.PENDING;
      }
      e.timer(e.dueAt, TimerKind.QUEUED);
      engine.metrics().count(SchedulerEvent.QUEUED);
      return;
    }
    e.attempt++;
    e.deadline = now + e.task.timeoutMs() + engine.settings().timeoutGraceMs();
    e.state = TaskState.DISPATCHED;
    e.timer(e.deadline, TimerKind.DEADLINE);
    e.addHistory(new AttemptEntry(e.attempt, now, 0, null, null, null));
    out.dispatch(
        new Dispatch(Wire.VERSION, e.task, e.attempt, e.deadline, e.task.routingKey(), now), now);
    // A task enqueued as "run now" (dueAt in the past) counts from its creation instead.
    engine.metrics().dispatched(Math.max(0, now - Math.max(e.dueAt, e.task.createdAt())));
  }

  private boolean mustQueue(String handler, boolean fromQueue) {
    HandlerLoad load = store.load();
    return load.dispatched(handler, store) >= engine.settings().maxDispatched()
        || (!fromQueue && load.queued(handler, store) > 0);
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

  /** A terminal state: kept for the retention window, then purged; waiters are told. */
  void finish(TaskRecord.Edit e, String id, TaskState state, String reason, long now) {
    e.state = state;
    e.probes.clear();
    e.reason = reason;
    e.finishedAt = now;
    e.updatedAt = now;
    e.timer(now + engine.settings().retentionMs(), TimerKind.PURGE);
    notifyWaiters(e, id, state, reason, now);
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
