package io.tasklane.scheduler.internal.lifecycle;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How long the timers of one stream task may fire in one punctuator tick
 * (docs/scheduler-streams.md, Timers and input).
 *
 * <p>Why: Kafka Streams runs the punctuators and the input records of a stream thread's tasks on
 * that thread in turns, and after every turn in which a punctuator ran it processes one record per
 * task in the next turn (it halves the number, which stays at one while punctuators run in most
 * turns). A tick that fired every due timer took seconds once thousands of fires were late, and
 * punctuators that always have timers due left the input about one record per task per turn:
 * results, cancels, pauses and unschedules waited for minutes while the fires kept their time.
 *
 * <p>So a tick has at most one punctuation interval. And while input waits for the thread, the
 * ticks of all the thread's tasks together have no longer than the thread spent on input records
 * (its credit, at most one interval), so that timers and input get about half the thread each: what
 * a tick spends is taken from the credit, and once it is used up the thread's other tasks fire one
 * timer each until input ran again. Input waits for the thread when the thread was busy (input and
 * timers) for at least {@link #BUSY_PERCENT} % of its last window of {@link #WINDOW_INTERVALS}
 * intervals, and the latest record was processed more than {@link #WAITING_LAG_MS} after its
 * timestamp, no longer than a window ago. Late records on an idle thread (a record stamped long
 * before it could be read, a task kept from processing while its other partition catches up) leave
 * the timers their whole interval. Otherwise a tick has the whole interval and the credit is
 * dropped. The first timer of a tick always fires.
 *
 * <p>One instance per stream task's punctuator, used on its stream thread; the credit is the
 * thread's ({@link TaskMemory.ThreadInput}), shared by its tasks' punctuators.
 */
public final class TimerShare {
  /**
   * How late an input record may be processed before the input counts as waiting: the default
   * misfire threshold, so that under overload neither a fire nor an input record is kept waiting
   * much longer than the other before the thread is shared.
   */
  static final long WAITING_LAG_MS = 5_000;

  /**
   * The window, in punctuation intervals, over which the thread's busy share is measured; also how
   * long after the latest late record the input may still count as waiting.
   */
  static final int WINDOW_INTERVALS = 5;

  /** How busy the thread must have been in its last window for input to wait for it. */
  static final int BUSY_PERCENT = 75;

  private final long intervalNanos;
  private final Supplier<TaskMemory.ThreadInput> input;
  private final LongSupplier nanoTime;

  /**
   * @param interval the punctuation interval
   * @param input the calling stream thread's input accounting
   * @param nanoTime the clock the budget is read against ({@link System#nanoTime} but in tests)
   */
  public TimerShare(
      Duration interval, Supplier<TaskMemory.ThreadInput> input, LongSupplier nanoTime) {
    this.intervalNanos = interval.toNanos();
    this.input = input;
    this.nanoTime = nanoTime;
  }

  /** The clock's reading now. */
  public long now() {
    return nanoTime.getAsLong();
  }

  /** The budget of a tick starting now, in nanoseconds of {@link #now}. */
  public long budget() {
    TaskMemory.ThreadInput in = input.get();
    long now = now();
    roll(in, now);
    boolean waiting =
        in.contended
            && in.lagMs > WAITING_LAG_MS
            && in.lastAtNanos != Long.MIN_VALUE
            && now - in.lastAtNanos <= WINDOW_INTERVALS * intervalNanos;
    if (!waiting) {
      in.creditNanos = 0;
      return intervalNanos;
    }
    return Math.min(intervalNanos, in.creditNanos);
  }

  /** A tick spent {@code nanos} firing timers: taken from the thread's credit. */
  public void spent(long nanos) {
    TaskMemory.ThreadInput in = input.get();
    in.creditNanos = Math.max(0, in.creditNanos - nanos);
    in.busyNanos += nanos;
  }

  /** Starts a new window once the current one is over, judging how busy the thread was in it. */
  private void roll(TaskMemory.ThreadInput in, long now) {
    if (in.windowStartNanos == Long.MIN_VALUE) {
      in.windowStartNanos = now;
      in.busyNanos = 0;
      return;
    }
    long length = now - in.windowStartNanos;
    if (length >= WINDOW_INTERVALS * intervalNanos) {
      in.contended = in.busyNanos * 100 >= length * BUSY_PERCENT;
      in.windowStartNanos = now;
      in.busyNanos = 0;
    }
  }
}
