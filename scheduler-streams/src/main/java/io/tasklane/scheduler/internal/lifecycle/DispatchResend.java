package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.Dispatch;
import io.tasklane.core.Wire;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a dispatch a crash may have lost again, as it was first sent, part of the {@link
 * Dispatcher} ({@link TimerRepair}'s {@link TimerRepair.LostDispatch}). Used on the stream task's
 * thread only (punctuation).
 */
final class DispatchResend implements TimerRepair.LostDispatch {
  private static final Logger LOG = LoggerFactory.getLogger(DispatchResend.class);

  private final Engine engine;
  private final Outputs out;

  DispatchResend(Engine engine, Outputs out) {
    this.engine = engine;
    this.out = out;
  }

  /**
   * Sends the dispatch of {@code r}'s current attempt again, as it was first sent (same attempt,
   * deadline, {@code notBefore} and nonce), when its deadline is still ahead and its handler topic
   * exists: the stream task reopened after a crash or a failed produce that may have lost it while
   * its DISPATCHED record was kept ({@link TimerRepair}). The record does not change. A worker that
   * already got the first copy answers both with the same nonce; the first answer settles the
   * attempt and the second is fenced. Counted {@code dispatch.resent}. Punctuator only.
   */
  @Override
  public void resend(String id, TaskRecord r, long now) {
    long dispatchedAt = TimerRepair.dispatchedAt(r);
    if (dispatchedAt == Long.MIN_VALUE || r.deadline() <= now) {
      return;
    }
    String topic = engine.topics().handler(r.task().handler());
    if (!engine.handlerTopics().exists(topic)) {
      return;
    }
    Long notBefore = r.dueAt() > dispatchedAt ? r.dueAt() : null;
    Dispatch dispatch =
        new Dispatch(
            Wire.VERSION,
            r.task(),
            r.attempt(),
            r.deadline(),
            r.task().routingKey(),
            dispatchedAt,
            notBefore,
            r.nonce());
    out.dispatch(dispatch, now);
    engine.metrics().count(SchedulerEvent.DISPATCH_RESENT);
    LOG.debug("task {}: attempt {} dispatched again after a restart", id, r.attempt());
  }
}
