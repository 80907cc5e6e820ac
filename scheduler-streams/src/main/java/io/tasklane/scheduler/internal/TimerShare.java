package io.tasklane.scheduler.internal;

import java.time.Duration;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * How long the timers of one stream task may fire in one punctuator tick
 * (docs/scheduler-streams.md, Timers and input): as long as it takes while the task's input keeps
 * up, and an equal part of half the punctuation interval, shared by the process's stream tasks,
 * while input records wait.
 *
 * <p>Why: Kafka Streams runs a stream task's punctuator and its input records on one stream thread
 * in turns, and halves the records it processes per turn after every turn in which a punctuator
 * ran. A punctuator that always has timers due (thousands of schedule fires a second) then leaves
 * the input about one record per stream task per turn: results, cancels, pauses and unschedules
 * wait for minutes while the fires keep their time. Capping the timers while input waits gives the
 * input at least half the thread; timers left unfired fire at the next ticks, oldest first.
 *
 * <p>Input waits while the latest record a processor of the task was handed was processed more than
 * {@link #WAITING_LAG_MS} after its timestamp, and for {@link #IDLE_AFTER_MS} after it: a stream
 * task whose input lags is sometimes handed nothing for several turns (Kafka Streams does not
 * process a task while one of its input partitions has data at the broker but none fetched), so the
 * absence of records between two ticks does not mean the input caught up. One instance per stream
 * task's punctuator, used on its stream thread.
 */
final class TimerShare {
  /** How late an input record may be processed before the input counts as waiting. */
  static final long WAITING_LAG_MS = 500;

  /** How long after the last late record the input still counts as waiting. */
  static final long IDLE_AFTER_MS = 1_000;

  private final long intervalNanos;
  private final IntSupplier openTasks;
  private final LongSupplier nanoTime;

  /**
   * @param interval the punctuation interval
   * @param openTasks how many stream tasks of this process are open (they share the thread)
   * @param nanoTime the clock the budget is read against ({@link System#nanoTime} but in tests)
   */
  TimerShare(Duration interval, IntSupplier openTasks, LongSupplier nanoTime) {
    this.intervalNanos = interval.toNanos();
    this.openTasks = openTasks;
    this.nanoTime = nanoTime;
  }

  /** The clock's reading now. */
  long now() {
    return nanoTime.getAsLong();
  }

  /**
   * The budget of the tick at {@code now} (wall-clock ms), in nanoseconds of {@link #now}: the
   * task's part of the interval, or of half of it while input waits ({@code memory}'s latest input
   * record).
   */
  long budget(TaskMemory memory, long now) {
    boolean waiting = memory.inputLagMs > WAITING_LAG_MS && now - memory.inputAt <= IDLE_AFTER_MS;
    return (waiting ? intervalNanos / 2 : intervalNanos) / Math.max(1, openTasks.getAsInt());
  }
}
