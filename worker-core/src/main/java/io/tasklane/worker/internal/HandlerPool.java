package io.tasklane.worker.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of one handler: {@code concurrency} daemon threads that start the dispatches they
 * hold highest priority first ({@link PoolOrder}), resizable at run time, and the count of
 * dispatches handed to them whose handler has not returned yet (queued, held or running), which
 * {@link HandlerConsumer} keeps under {@code max-in-flight}. Any thread.
 */
final class HandlerPool {
  private final ThreadPoolExecutor pool;
  private final AtomicInteger inPool = new AtomicInteger();

  HandlerPool(String handler, int concurrency, int maxInFlight) {
    AtomicInteger n = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            concurrency,
            concurrency,
            0,
            TimeUnit.MILLISECONDS,
            // highest priority first, aged (PoolOrder); bounded by max-in-flight (HandlerConsumer)
            new PriorityBlockingQueue<>(Math.min(maxInFlight, 1_024), PoolOrder.COMPARATOR),
            r -> {
              Thread t = new Thread(r, "tasklane-" + handler + "-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Consumer thread: hands {@code execution} to the threads and counts it in; false when they
   * refused it (stopping): it is counted in anyway, and the caller releases it ({@link #released}).
   */
  boolean submit(TaskExecution execution) {
    inPool.incrementAndGet();
    try {
      pool.execute(execution);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /** Pool thread: the handler of a dispatch handed in returned; it no longer counts. */
  void released() {
    inPool.decrementAndGet();
  }

  /** Handed in and not yet released. */
  int inPool() {
    return inPool.get();
  }

  /** Where a held dispatch goes back to when its instant comes. */
  Executor executor() {
    return pool;
  }

  int busyThreads() {
    return pool.getActiveCount();
  }

  int concurrency() {
    return pool.getMaximumPoolSize();
  }

  /**
   * Settings thread: {@code threads} threads from now on; running handlers are not disturbed (a
   * smaller pool lets its extra threads end as they finish).
   */
  void resize(int threads) {
    synchronized (pool) {
      if (threads >= pool.getMaximumPoolSize()) {
        pool.setMaximumPoolSize(threads);
        pool.setCorePoolSize(threads);
      } else {
        pool.setCorePoolSize(threads);
        pool.setMaximumPoolSize(threads);
      }
    }
  }

  /** Consumer thread, stopping: interrupts the running handlers; queued dispatches never start. */
  void shutdownNow() {
    pool.shutdownNow();
  }
}
