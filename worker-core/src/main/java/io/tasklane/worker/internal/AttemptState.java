package io.tasklane.worker.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who ends an attempt, and so publishes its one result: the pool thread when the handler returns,
 * the timer thread when it runs out of time, the interrupt listener's thread when it is cancelled —
 * whichever comes first; what the others would publish is dropped. The one that times out or
 * cancels the attempt interrupts the handler's thread ({@link #bind}). Any thread.
 */
final class AttemptState {
  private static final int NEW = 0;
  private static final int RUNNING = 1;
  private static final int DONE = 2;
  private static final int TIMED_OUT = 3;
  private static final int CANCELLED = 4;

  private final AtomicInteger state = new AtomicInteger(NEW);
  private Thread thread; // guarded by this

  /** Pool thread: the attempt starts (its checks before the handler included). */
  void start() {
    state.set(RUNNING);
  }

  /** Started and not ended yet. */
  boolean running() {
    return state.get() == RUNNING;
  }

  /**
   * Pool thread: the current thread is about to run the handler; false when the attempt ended
   * before (cancelled), and the handler must not run.
   */
  synchronized boolean bind() {
    if (state.get() != RUNNING) {
      return false;
    }
    thread = Thread.currentThread();
    return true;
  }

  /** Pool thread: ends the attempt; true when this call did, so its result is the one published. */
  synchronized boolean finish() {
    return state.compareAndSet(RUNNING, DONE);
  }

  /**
   * Timer thread: ends the attempt as timed out and interrupts its handler; true when this call
   * did. Only after {@link #bind}: the timer starts with the handler.
   */
  synchronized boolean timeOut() {
    if (!state.compareAndSet(RUNNING, TIMED_OUT)) {
      return false;
    }
    thread.interrupt();
    return true;
  }

  /**
   * Interrupt listener's thread: ends the attempt as cancelled and interrupts its handler, if it
   * runs one yet; true when this call did.
   */
  synchronized boolean cancel() {
    if (!state.compareAndSet(RUNNING, CANCELLED)) {
      return false;
    }
    if (thread != null) {
      thread.interrupt();
    }
    return true;
  }
}
