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
 * The task lifecycle (docs/scheduler-streams.md, state machine), as the transitions every processor
 * shares:
 *
 * <ul>
 *   <li>{@link #schedule}: PENDING or RETRYING with a due timer, or handed to the {@link
 *       Dispatcher} at once when due (DISPATCHED, NO_HANDLER, or queued for a slot);
 *   <li>{@link #fail}: a failed attempt, RETRYING after the task's backoff, or DEAD when its
 *       attempts are used up;
 *   <li>{@link #dead}: DEAD, the last dispatch on the handler's DLT;
 *   <li>{@link #finish}: a terminal state (SUCCEEDED, DEAD, CANCELLED), kept for the retention
 *       ({@link FinishedPurge}; a task without an envelope by a purge timer), waiters told ({@link
 *       #notifyWaiters}), and a schedule fire's schedule told ({@link ScheduleNotices}).
 * </ul>
 *
 * <p>A transition edits a {@link TaskRecord.Edit} and forwards records; the caller stores the
 * result with {@link TaskStore}, so the records and the stores go out in the same commit. One
 * instance per processor per stream task; used on its stream thread only (processing and
 * punctuation).
 */
final class TaskMachine {
  private static final Logger LOG = LoggerFactory.getLogger(TaskMachine.class);

  final TaskStore store;
  final Engine engine;
  final Outputs out;
  final Dispatcher dispatcher;

  /**
   * Where the notices of finished fire tasks go: through {@code <ns>.tasks} until the processor
   * sets a sink that applies its own partition's at once ({@link ScheduleNotices#localFirst}).
   */
  ScheduleNotices.Sink notices;

  /** Opens the stream task's stores for a processor ({@code init}, stream thread). */
  TaskMachine(ProcessorContext<String, Object> context, Engine engine) {
    this.store = new TaskStore(context, engine.memory());
    this.engine = engine;
    this.out = new Outputs(context);
    this.dispatcher = new Dispatcher(store, engine, out);
    this.notices = ScheduleNotices.topic(out);
  }

  /**
   * Opens the stream task's schedules for this processor and applies the notices of the fires kept
   * in this partition to them at once; {@code local} admits a fire's task made here.
   */
  ScheduleMachine openSchedules(
      ProcessorContext<String, Object> context, FireRunner.LocalAdmission local) {
    ScheduleMachine schedules =
        new ScheduleMachine(
            new ScheduleStore(context, engine.memory(), engine.settings().scheduleLeadMs()),
            engine,
            out,
            local);
    notices =
        ScheduleNotices.localFirst(
            context.taskId().partition(), engine.settings().partitions(), schedules, out);
    return schedules;
  }

  /**
   * Handles an input record written at {@code timestamp}, handed at {@code now}, and accounts for
   * its processing time on this stream thread ({@link TimerShare}).
   */
  void timed(long timestamp, long now, Runnable handle) {
    store.opened(now);
    long began = engine.nanoTime().getAsLong();
    try {
      handle.run();
    } finally {
      long end = engine.nanoTime().getAsLong();
      engine
          .memory()
          .input()
          .processed(
              timestamp, now, end - began, end, engine.settings().punctuationInterval().toNanos());
    }
  }

  /** The processor closes: so does its store. */
  void close() {
    store.close();
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
        && e.task.headers().containsKey(ScheduleMachine.HEADER_FIRE_TIME)
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
    ScheduleNotices.finished(e.task, id, state, reason, now, notices);
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
