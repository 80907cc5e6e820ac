package io.tasklane.worker.internal;

import io.tasklane.core.TaskOptions;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The order in which a handler's pool starts the dispatches it holds for a thread: by rank, {@code
 * received − (priority − 5) × AGING_MS ÷ 9}, then in the order they were received. So a dispatch of
 * a higher priority passes those of lower ones received at most {@code (p' − p) × AGING_MS ÷ 9}
 * before it, one of priority 0 waits at most {@link #AGING_MS} longer than in arrival order, and
 * dispatches of one priority keep their order (docs/priorities.md, <i>In the worker</i>). The
 * scheduler's queue orders the tasks of a saturated handler the same way; this order covers the
 * dispatches already sent, up to {@code max-in-flight} of them in a worker's pool. Stateless but
 * for the arrival sequence; any thread.
 */
final class PoolOrder {
  /**
   * How much longer, at most, a dispatch of the lowest priority waits in a pool than in arrival
   * order: a pool holds dispatches for milliseconds to seconds, so a second lets an urgent one pass
   * them all and keeps the scheduler's bound ({@code priority-aging}, minutes) what users see.
   */
  static final long AGING_MS = 1_000;

  /** The pool's queue order ({@link TaskExecution} only). */
  static final Comparator<Runnable> COMPARATOR =
      Comparator.comparingLong((Runnable r) -> ((TaskExecution) r).rank())
          .thenComparingLong(r -> ((TaskExecution) r).sequence());

  private static final AtomicLong SEQUENCE = new AtomicLong();

  private PoolOrder() {}

  /** The rank of a dispatch of {@code priority} received at {@code receivedAt} (epoch ms). */
  static long rank(long receivedAt, int priority) {
    return receivedAt - (priority - TaskOptions.DEFAULT_PRIORITY) * AGING_MS / 9;
  }

  /** The next arrival number: ties of rank go in the order received. */
  static long next() {
    return SEQUENCE.incrementAndGet();
  }
}
