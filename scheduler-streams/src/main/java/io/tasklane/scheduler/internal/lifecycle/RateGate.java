package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.ControlCommand.RateAnswer;
import io.tasklane.core.ControlCommand.RateAsk;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The asking side of rate limits, part of the {@link Dispatcher}: a due task whose starts count
 * against a rate limit (its own {@code rateLimit}, else its handler's {@code rate}) asks the
 * limit's owner for a start slot ({@link RateAsk} on {@code <ns>.dependencies}, keyed by the limit,
 * so every ask of one limit reaches one stream task: {@link RateOwner}) and waits with a {@link
 * TimerKind#RATE} timer. The answer either grants a slot (the task is dispatched at once, with the
 * slot as its {@code notBefore}, so the worker starts it then) or names the time to ask again. The
 * timer's time is the ask's token: only the answer to the current ask is taken, a duplicate or late
 * one is stale. An answer that never comes (an ask refused as invalid) is asked again when the
 * timer passes, {@link #ANSWER_WAIT_MS} later. A task that names a limit nobody defined waits and
 * looks again every {@code no-handler-recheck}, counted {@code rate.undefined}: a misspelt limit
 * never runs its tasks unlimited. Used on the stream task's thread only.
 */
final class RateGate {
  private static final Logger LOG = LoggerFactory.getLogger(RateGate.class);

  /** How long a task waits for the answer to its ask before it asks again. */
  static final long ANSWER_WAIT_MS = 30_000;

  /** Attempts sent back unstarted in a row after which the next one carries no tolerance. */
  static final int MAX_MISSES = 5;

  private static final Set<TaskState> WAITING_TO_RUN =
      Set.of(TaskState.PENDING, TaskState.RETRYING, TaskState.NO_HANDLER);

  private final Engine engine;
  private final Outputs out;
  private final Set<String> warned = new HashSet<>();

  RateGate(Engine engine, Outputs out) {
    this.engine = engine;
    this.out = out;
  }

  /** The key of the limit {@code task}'s starts count against, or null when none does. */
  String limitOf(TaskEnvelope task) {
    String named = task.options().rateLimit();
    if (named != null) {
      return named;
    }
    return engine.controls().handlerLimited(task.handler())
        ? RateAsk.HANDLER_LIMIT + task.handler()
        : null;
  }

  /** Whether a limit counts {@code task}'s starts ({@link #limitOf} without making its key). */
  boolean limited(TaskEnvelope task) {
    return task.options().rateLimit() != null || engine.controls().handlerLimited(task.handler());
  }

  /**
   * Whether {@code task}, due and free to go otherwise, must first get a slot of its rate limit:
   * then the ask is sent, and the time returned is the task's {@link TimerKind#RATE} timer (the
   * ask's token); -1 when it may go now.
   *
   * @param turn 0 for a first ask; the time the owner named for one that comes back when told, or
   *     the slot of a grant that came too late
   * @param late by how much that grant came too late, else 0
   */
  long waitUntil(TaskEnvelope task, long now, long turn, long late) {
    String limit = limitOf(task);
    if (limit == null) {
      return -1;
    }
    if (engine.controls().rate(limit) == null) {
      if (warned.add(limit)) {
        LOG.warn(
            "task {}: rate limit '{}' is not defined (limits.<name>.rate); its tasks wait for it",
            task.id(),
            limit);
      }
      engine.metrics().count(SchedulerEvent.RATE_UNDEFINED);
      return now + engine.settings().noHandlerRecheckMs();
    }
    long ask = now + ANSWER_WAIT_MS;
    out.control(
        RateAsk.key(limit), RateAsk.of(task.id(), task.routingKey(), limit, ask, turn, late), now);
    engine.metrics().count(SchedulerEvent.RATE_ASKED);
    return ask;
  }

  /**
   * The tolerance the dispatch of {@code e}, granted a slot, carries ({@link
   * RateSpacing#toleranceMs}): how late after its slot the worker may still start it. Null when its
   * last {@value #MAX_MISSES} attempts were all sent back unstarted ({@code SLOT_MISSED}), so that
   * a worker whose clock runs ahead, or one starved for long, does not send a task back for ever.
   */
  Long toleranceOf(TaskRecord.Edit e) {
    String limit = limitOf(e.task);
    RateSpacing spacing = limit == null ? null : engine.controls().rate(limit);
    return spacing == null || missedInARow(e) >= MAX_MISSES ? null : spacing.toleranceMs();
  }

  private static int missedInARow(TaskRecord.Edit e) {
    int n = 0;
    for (int i = e.history.size() - 1; i >= 0; i--, n++) {
      if (!Outcome.SLOT_MISSED.name().equals(e.history.get(i).outcome())) {
        break;
      }
    }
    return n;
  }

  /**
   * Whether {@code answer} answers the current ask of the task whose record is {@code r}: it still
   * waits with the very timer the ask was sent with.
   */
  static boolean current(TaskRecord r, RateAnswer answer) {
    return r != null
        && r.task() != null
        && WAITING_TO_RUN.contains(r.state())
        && r.timerKind() == TimerKind.RATE
        && r.timerAt() == answer.ask();
  }
}
