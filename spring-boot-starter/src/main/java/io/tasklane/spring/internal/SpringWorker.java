package io.tasklane.spring.internal;

import io.tasklane.worker.internal.WorkerRuntime;
import org.springframework.context.SmartLifecycle;

/**
 * The worker in a Spring context: starts the {@link WorkerRuntime} once every singleton exists (on
 * the thread refreshing the context, in the last lifecycle phase, so the handlers' dependencies and
 * the web server are up), and stops it first when the context closes (on the closing thread, before
 * the DataSource and the other beans are destroyed), draining running attempts up to {@code
 * tasklane.worker.shutdown-grace}. Set {@code spring.lifecycle.timeout-per-shutdown-phase} above
 * the grace period if you change either.
 */
public final class SpringWorker implements SmartLifecycle {
  private final WorkerRuntime runtime;
  private volatile boolean running;

  SpringWorker(WorkerRuntime runtime) {
    this.runtime = runtime;
  }

  /** The worker this bean runs. */
  public WorkerRuntime runtime() {
    return runtime;
  }

  @Override
  public void start() {
    runtime.start();
    running = true;
  }

  @Override
  public void stop() {
    running = false;
    runtime.stop();
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return Integer.MAX_VALUE - 1000;
  }
}
