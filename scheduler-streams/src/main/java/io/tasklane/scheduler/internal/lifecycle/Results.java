package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.ErrorInfo;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import java.util.List;

/**
 * A worker's result applied to the current attempt, part of the {@link TaskLifecycle}. Results for
 * unknown tasks or other attempts are counted and ignored (fencing). A result for the current
 * attempt must answer its dispatch: carry the nonce the scheduler drew for it and the task's
 * handler ({@link #mismatch}); one that does not is refused with {@link ResultMismatch} and leaves
 * the task as it was, so a principal that can write results but cannot read this handler's topic
 * cannot settle its tasks. Used on the stream task's thread only.
 */
public final class Results {
  private final TaskLifecycle owner;
  private final TaskStore store;
  private final Engine engine;
  private final Transitions transitions;

  Results(TaskLifecycle owner, TaskStore store) {
    this.owner = owner;
    this.store = store;
    this.engine = owner.engine;
    this.transitions = owner.transitions;
  }

  /**
   * Applies result {@code r}.
   *
   * @throws ResultMismatch when it is for the current attempt but does not answer its dispatch
   */
  void apply(TaskResult r, long now) {
    String id = r.id();
    TaskRecord previous = id == null ? null : store.get(id);
    if (previous == null || previous.task() == null) {
      engine.metrics().count(SchedulerEvent.RESULT_UNKNOWN);
      return;
    }
    if (r.attempt() != previous.attempt() || r.outcome() == null) {
      owner.reassert(id, previous);
      engine.metrics().count(SchedulerEvent.RESULT_FENCED);
      return;
    }
    String mismatch = mismatch(r, previous);
    if (mismatch != null) {
      throw new ResultMismatch(
          mismatch,
          "result-mismatch: the result for attempt "
              + r.attempt()
              + " of task "
              + id
              + " does not answer its dispatch ("
              + describe(mismatch, r, previous)
              + "); the task is unchanged");
    }
    TaskRecord.Edit e = previous.edit();
    String error = r.error() == null ? null : r.error().message();
    String outcome = r.outcome().name();
    if (previous.state() == TaskState.CANCELLED) {
      // Recorded for the console, but a cancelled task is never revived.
      e.endAttempt(r.attempt(), now, outcome + " (after cancel)", error, r.worker());
      owner.commit(id, previous, e);
      engine.metrics().count(SchedulerEvent.RESULT_AFTER_CANCEL);
      return;
    }
    boolean lateSuccess =
        previous.state() == TaskState.RETRYING && r.outcome() == io.tasklane.core.Outcome.SUCCEEDED;
    if (previous.state() != TaskState.DISPATCHED && !lateSuccess) {
      owner.reassert(id, previous);
      engine.metrics().count(SchedulerEvent.RESULT_FENCED);
      return;
    }
    returned(previous, r, now);
    e.endAttempt(r.attempt(), now, outcome, error, r.worker());
    e.updatedAt = now;
    switch (r.outcome()) {
      case SUCCEEDED -> {
        e.lastError = null;
        transitions.finish(e, id, TaskState.SUCCEEDED, null, now);
        engine.metrics().count(SchedulerEvent.SUCCEEDED);
      }
      case FAILED -> transitions.fail(e, id, errorOf(r, "failed"), now);
      case PERMANENT_FAILURE ->
          transitions.dead(e, id, errorOf(r, "permanent failure"), "permanent failure", now);
      case RETRY_LATER -> snooze(e, id, r, now);
      case SLOT_MISSED -> slotMissed(e, previous, now);
        // Only answers an interrupt, which only a cancel sends: an interrupted attempt of a task
        // that is not CANCELLED (not expected) counts as a failed one and is retried.
      case CANCELLED -> transitions.fail(e, id, errorOf(r, "interrupted"), now);
    }
    owner.commit(id, previous, e);
  }

  private void returned(TaskRecord previous, TaskResult r, long now) {
    List<AttemptEntry> h = previous.history();
    AttemptEntry last = h.isEmpty() ? null : h.get(h.size() - 1);
    if (last != null && last.attempt() == r.attempt() && last.dispatchedAt() > 0) {
      long roundTrip = Math.max(0, now - last.dispatchedAt());
      long run = Math.min(roundTrip, Math.max(0, r.finishedAt() - r.startedAt()));
      engine.metrics().returned(roundTrip, run);
      if (engine.settings().adaptiveWindow()) {
        // The way back (the worker's clock at the end → now: the results topic and this stream
        // thread's lag) apart from the way out, which the window keeps short: a scheduler behind
        // its results by seconds would otherwise count its own lag as a queue in the handler topic
        // and size the window to it. The two clocks' skew moves time between the two parts only.
        long back =
            r.finishedAt() <= 0 ? 0 : Math.min(roundTrip - run, Math.max(0, now - r.finishedAt()));
        // a freed slot is refilled at once while the window is in force (LaneTurns.refill)
        store.queues().returned(previous.task().handler(), now, roundTrip - run - back, run, back);
      }
    }
  }

  /**
   * The fields of {@code r} that do not match the current dispatch, comma-separated, or null. A
   * dispatch with a nonce needs a result with that nonce and the task's handler. A dispatch without
   * one (sent by a scheduler that predates nonces, before an upgrade) accepts a result without a
   * nonce, from any worker version; a handler it names must still be the task's.
   */
  static String mismatch(TaskResult r, TaskRecord task) {
    boolean nonce = !DispatchNonces.same(r.nonce(), task.nonce());
    boolean handler =
        task.nonce() != null || r.handler() != null
            ? !task.task().handler().equals(r.handler())
            : false;
    if (nonce && handler) {
      return "nonce,handler";
    }
    return nonce ? "nonce" : handler ? "handler" : null;
  }

  private static String describe(String mismatch, TaskResult r, TaskRecord task) {
    StringBuilder s = new StringBuilder();
    if (mismatch.contains("nonce")) {
      s.append(
          r.nonce() == null
              ? "it carries no dispatch nonce"
              : task.nonce() == null
                  ? "it carries a dispatch nonce, the dispatch had none"
                  : "its dispatch nonce is not the dispatch's");
    }
    if (mismatch.contains("handler")) {
      if (s.length() > 0) {
        s.append("; ");
      }
      s.append(
          r.handler() == null
              ? "it names no handler"
              : "its handler '"
                  + capped(r.handler())
                  + "' is not the task's '"
                  + task.task().handler()
                  + "'");
    }
    return s.toString();
  }

  private static String capped(String s) {
    return s.length() <= 100 ? s : s.substring(0, 100) + "…";
  }

  private void snooze(TaskRecord.Edit e, String id, TaskResult r, long now) {
    e.snoozes++;
    int cap = engine.settings().snoozeCap();
    if (e.snoozes > cap) {
      String reason = "snoozed more than " + cap + " times (RETRY_LATER cap)";
      transitions.dead(e, id, errorOf(r, "snooze cap"), reason, now);
      return;
    }
    long delay =
        r.retryAfterMs() != null
            ? Math.min(RetryPolicy.MAX_DELAY_MS, Math.max(0, r.retryAfterMs()))
            : e.task.backoff().delayMs(1, engine.random().get());
    transitions.schedule(e, TaskState.RETRYING, now + delay, now);
  }

  /**
   * The worker sent the attempt back unstarted, its rate slot long past: the task asks its limit
   * again at once, first in line and that much further ahead ({@link RateGate}), without using up
   * an attempt or a snooze ({@link RateGate#toleranceOf} caps how many times in a row).
   */
  private void slotMissed(TaskRecord.Edit e, TaskRecord previous, long now) {
    engine.metrics().count(SchedulerEvent.RATE_MISSED);
    e.state = e.failures > 0 ? TaskState.RETRYING : TaskState.PENDING;
    long slot = Math.max(1, Math.min(previous.dueAt(), now));
    owner.dispatcher.dispatchOrPark(e, now, false, false, slot, now - slot);
  }

  private static ErrorInfo errorOf(TaskResult r, String fallback) {
    return r.error() != null ? r.error() : new ErrorInfo(fallback, r.outcome().name(), null);
  }
}
