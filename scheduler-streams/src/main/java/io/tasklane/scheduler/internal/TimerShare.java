package io.tasklane.scheduler.internal;

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
 * <p>So a tick has at most one punctuation interval, and a round of ticks over the thread's tasks
 * ends within as many intervals as it has tasks. And while input waits, a tick has no longer than
 * the thread spent on input records since its last tick (of any task), so that timers and input get
 * about half the thread each. Input waits when the thread's tasks were handed records since that
 * tick and the latest was processed more than {@link #WAITING_LAG_MS} after its timestamp. The
 * first timer of a tick always fires.
 *
 * <p>One instance per stream task's punctuator, used on its stream thread.
 */
final class TimerShare {
  /** How late an input record may be processed before the input counts as waiting. */
  static final long WAITING_LAG_MS = 500;

  private final long intervalNanos;
  private final Supplier<TaskMemory.ThreadInput> input;
  private final LongSupplier nanoTime;

  /**
   * @param interval the punctuation interval
   * @param input the calling stream thread's input accounting
   * @param nanoTime the clock the budget is read against ({@link System#nanoTime} but in tests)
   */
  TimerShare(Duration interval, Supplier<TaskMemory.ThreadInput> input, LongSupplier nanoTime) {
    this.intervalNanos = interval.toNanos();
    this.input = input;
    this.nanoTime = nanoTime;
  }

  /** The clock's reading now. */
  long now() {
    return nanoTime.getAsLong();
  }

  /**
   * The budget of this tick in nanoseconds of {@link #now}; starts the thread's input accounting
   * afresh for the next tick.
   */
  long budget() {
    TaskMemory.ThreadInput in = input.get();
    boolean waiting = in.records > 0 && in.lagMs > WAITING_LAG_MS;
    long spent = in.nanos;
    in.records = 0;
    in.nanos = 0;
    return waiting ? Math.min(intervalNanos, spent) : intervalNanos;
  }
}
