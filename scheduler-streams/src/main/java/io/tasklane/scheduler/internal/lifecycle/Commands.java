package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.ControlCommand;
import io.tasklane.core.ControlRecord;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.TaskInterrupt;
import io.tasklane.core.TaskState;
import java.util.List;
import java.util.Set;

/**
 * Cancel, operator commands and the dependency protocol, part of the {@link TaskLifecycle}. Unknown
 * or inapplicable commands are counted and ignored. Used on the stream task's thread only.
 */
public final class Commands {
  private static final Set<TaskState> WAITING_TO_RUN =
      Set.of(TaskState.PENDING, TaskState.RETRYING, TaskState.NO_HANDLER);

  /** How a refused waiter's reason starts (and how its DEAD record's error type reads). */
  static final String TOO_MANY_WAITERS = "too many waiters: ";

  private final TaskLifecycle owner;
  private final TaskStore store;
  private final Engine engine;
  private final Transitions transitions;
  private final CycleProbes probes;

  Commands(TaskLifecycle owner, TaskStore store) {
    this.owner = owner;
    this.store = store;
    this.engine = owner.engine;
    this.transitions = owner.transitions;
    this.probes = new CycleProbes(owner);
  }

  /**
   * Cancels in any non-terminal state; an unknown id is remembered for the retention window. A
   * DISPATCHED task's running attempt is also interrupted ({@code <ns>.interrupts}, same commit):
   * the worker running it interrupts the handler and answers CANCELLED, recorded in the history.
   */
  void cancel(String id, String reason, long now) {
    TaskRecord previous = store.get(id);
    String why = reason == null ? "cancelled" : "cancelled: " + reason;
    if (previous == null || previous.isPlaceholder()) {
      TaskRecord.Edit e = (previous == null ? TaskRecord.empty() : previous).edit();
      transitions.finish(e, id, TaskState.CANCELLED, why + " (before the task arrived)", now);
      owner.commit(id, previous, e);
      engine.metrics().count(SchedulerEvent.CANCEL_EARLY);
      return;
    }
    if (previous.state().isTerminal()) {
      owner.reassert(id, previous);
      engine.metrics().count(SchedulerEvent.CANCEL_IGNORED);
      return;
    }
    TaskRecord.Edit e = previous.edit();
    transitions.finish(e, id, TaskState.CANCELLED, why, now);
    owner.commit(id, previous, e);
    engine.metrics().count(SchedulerEvent.CANCELLED);
    if (previous.state() == TaskState.DISPATCHED) {
      owner.out.interrupt(TaskInterrupt.of(id, previous.attempt(), why, now), now);
      engine.metrics().count(SchedulerEvent.INTERRUPT_SENT);
    }
  }

  /** DEAD → PENDING with a fresh attempt budget, due now. */
  void retryDead(String id, long now) {
    TaskRecord previous = store.get(id);
    if (previous == null || previous.task() == null || previous.state() != TaskState.DEAD) {
      engine.metrics().count(SchedulerEvent.RETRY_DEAD_IGNORED);
      return;
    }
    TaskRecord.Edit e = previous.edit();
    e.failures = 0;
    e.snoozes = 0;
    e.finishedAt = 0;
    e.reason = null;
    transitions.schedule(e, TaskState.PENDING, now, now);
    owner.commit(id, previous, e);
  }

  /** An operator command, or a record of the dependency or the rate-limit protocol. */
  void apply(ControlRecord value, long now) {
    if (value instanceof ControlCommand.RetryDead r) {
      retryDead(r.id(), now);
    } else if (value instanceof ControlCommand.Trigger t) {
      trigger(t.id(), now);
    } else if (value instanceof ControlCommand.Discard d) {
      discard(d.id());
    } else if (value instanceof ControlCommand.Await a) {
      await(a, now);
    } else if (value instanceof ControlCommand.DependencyDone d) {
      dependencyDone(d, now);
    } else if (value instanceof ControlCommand.RateAsk a) {
      owner.rateOwner.ask(a, now);
    } else if (value instanceof ControlCommand.RateAnswer a) {
      rateAnswer(a, now);
    }
  }

  /**
   * The answer to a task's ask for a slot of its rate limit ({@link RateGate}): a granted slot
   * dispatches the task (one that arrives after its slot has passed is left unused, and the task
   * asks again, first in line), a later time becomes its {@link TimerKind#RATE} timer. An answer to
   * an ask the task no longer waits for is stale and ignored.
   */
  private void rateAnswer(ControlCommand.RateAnswer a, long now) {
    TaskRecord previous = store.get(a.id());
    if (!RateGate.current(previous, a)) {
      engine.metrics().count(SchedulerEvent.RATE_STALE);
      return;
    }
    TaskRecord.Edit e = previous.edit().noTimer();
    if (a.granted() && a.slot() < now) { // late: started now it could crowd the next slots
      engine.metrics().count(SchedulerEvent.RATE_LATE);
      owner.dispatcher.dispatchOrPark(e, now, false, false, a.slot(), now - a.slot());
    } else if (a.granted()) {
      owner.dispatcher.dispatchGranted(e, now, a.slot());
    } else {
      e.updatedAt = now;
      e.timer(Math.max(a.retryAt(), now + 1), TimerKind.RATE);
    }
    owner.commit(a.id(), previous, e);
  }

  /** Runs a PENDING, RETRYING or NO_HANDLER task now. */
  void trigger(String id, long now) {
    TaskRecord previous = store.get(id);
    if (previous == null || !WAITING_TO_RUN.contains(previous.state())) {
      engine.metrics().count(SchedulerEvent.TRIGGER_IGNORED);
      return;
    }
    if (previous.timerKind() == TimerKind.QUEUED
        || previous.timerKind() == TimerKind.LANE
        || previous.timerKind() == TimerKind.RATE) {
      // Already due and waiting for a slot, its lane's turn or its rate: keep its place.
      engine.metrics().count(SchedulerEvent.TRIGGER_QUEUED);
      return;
    }
    TaskRecord.Edit e = previous.edit();
    transitions.schedule(e, previous.state(), now, now);
    owner.commit(id, previous, e);
  }

  /** Forgets a DEAD task now instead of at the end of its retention. */
  void discard(String id) {
    TaskRecord previous = store.get(id);
    if (previous == null || previous.state() != TaskState.DEAD) {
      engine.metrics().count(SchedulerEvent.DISCARD_IGNORED);
      return;
    }
    owner.forget(id, previous);
  }

  /**
   * Dependency protocol on the dependency's side: answer now if finished, else remember the waiter;
   * a WAITING dependency also detects a cycle or passes the probe on ({@link CycleProbes}).
   */
  void await(ControlCommand.Await await, long now) {
    String id = await.id();
    TaskRecord previous = store.get(id);
    if (previous != null && previous.state() != null && previous.state().isTerminal()) {
      owner.out.control(
          await.waiterRoutingKey(),
          ControlCommand.DependencyDone.of(
              await.waiterId(), id, previous.state(), previous.reason()),
          now);
      return;
    }
    TaskRecord.Edit e = (previous == null ? TaskRecord.empty() : previous).edit();
    Waiter waiter = new Waiter(await.waiterId(), await.waiterRoutingKey());
    if (!e.waiters.contains(waiter)) {
      int cap = engine.settings().maxWaitersPerTask();
      if (e.waiters.size() >= cap) {
        refuseWaiter(await, id, cap, now);
        return;
      }
      e.waiters.add(waiter);
    }
    if (previous == null) {
      e.updatedAt = now;
      e.timer(now + engine.settings().retentionMs(), TimerKind.PURGE);
    } else if (previous.state() == TaskState.WAITING) {
      List<String> cycle = CycleProbes.cycle(id, await);
      if (cycle != null) {
        probes.fail(e, id, cycle, now);
      } else {
        probes.forward(e, id, await, now);
      }
    }
    owner.commit(id, previous, e);
  }

  /**
   * Task {@code id} has {@code cap} waiters already: the one more goes DEAD (through the ordinary
   * {@code dependency-done}) with a reason naming the cap, instead of growing the record without
   * bound. Counted {@code waiters.cap}.
   */
  private void refuseWaiter(ControlCommand.Await await, String id, int cap, long now) {
    String reason =
        TOO_MANY_WAITERS
            + "dependency "
            + id
            + " already has "
            + cap
            + " waiting tasks, the limit (tasklane.scheduler.max-waiters-per-task)";
    owner.out.control(
        await.waiterRoutingKey(),
        ControlCommand.DependencyDone.of(await.waiterId(), id, TaskState.DEAD, reason),
        now);
    engine.metrics().count(SchedulerEvent.WAITERS_CAP);
  }

  /**
   * Dependency protocol on the waiter's side. Only a WAITING task that waits on {@code
   * dependencyId} listens; any other answer is counted {@code dependency-done.ignored}. An answer
   * without a terminal state ({@link #recheck}) says the dependency is not finished: the waiter
   * sends its await again, so the dependency knows it.
   */
  void dependencyDone(ControlCommand.DependencyDone done, long now) {
    String id = done.id();
    TaskRecord previous = store.get(id);
    if (previous == null
        || previous.state() != TaskState.WAITING
        || !previous.waitingOn().contains(done.dependencyId())) {
      engine.metrics().count(SchedulerEvent.DEPENDENCY_DONE_IGNORED);
      return;
    }
    if (done.state() == null || !done.state().isTerminal()) {
      String dep = done.dependencyId();
      owner.out.control(dep, ControlCommand.Await.of(dep, id, previous.task().routingKey()), now);
      return;
    }
    TaskRecord.Edit e = previous.edit();
    if (done.state() == TaskState.SUCCEEDED) {
      e.waitingOn.remove(done.dependencyId());
      e.updatedAt = now;
      if (e.waitingOn.isEmpty()) {
        transitions.schedule(e, TaskState.PENDING, e.task.dueAt(), now);
      }
    } else if (done.reason() != null && done.reason().startsWith(TOO_MANY_WAITERS)) {
      String reason = done.reason();
      transitions.dead(e, id, new ErrorInfo("waiter-cap", reason, null), reason, now);
    } else {
      String reason =
          "dependency "
              + done.dependencyId()
              + " is "
              + done.state()
              + (done.reason() == null ? "" : " (" + done.reason() + ")");
      transitions.dead(e, id, new ErrorInfo("dependency", reason, null), reason, now);
    }
    owner.commit(id, previous, e);
  }

  /**
   * An {@code await} or {@code dependency-done} that came on {@code <ns>.control} (dead-lettered
   * there: a forgery, or a record an older scheduler wrote before the upgrade) is not applied; it
   * only makes the scheduler check, through its own topic, what the record claims, so a genuine one
   * still completes its dependency and a forged one changes nothing. An await: the dependency
   * answers the named waiter with its terminal state, or, when not finished (or unknown), with an
   * answer without a state, to which a waiter that really waits on it replies with its own await. A
   * dependency-done: a named waiter that really waits on the dependency sends its own await again
   * (the dependency answers it if finished). No record is created or changed here.
   */
  void recheck(ControlRecord value, long now) {
    if (value instanceof ControlCommand.Await a) {
      TaskRecord dependency = store.get(a.id());
      boolean finished =
          dependency != null && dependency.state() != null && dependency.state().isTerminal();
      owner.out.control(
          a.waiterRoutingKey(),
          ControlCommand.DependencyDone.of(
              a.waiterId(),
              a.id(),
              finished ? dependency.state() : null,
              finished ? dependency.reason() : null),
          now);
    } else if (value instanceof ControlCommand.DependencyDone d) {
      dependencyDone(ControlCommand.DependencyDone.of(d.id(), d.dependencyId(), null, null), now);
    }
  }
}
