package io.tasklane.worker.spi;

import java.util.concurrent.CompletableFuture;

/**
 * One of the worker's health checks (handlers, Kafka, idempotency store), published by the
 * framework adapter as a health indicator. {@link #check} never blocks the caller's thread: the
 * answer completes the future, on a thread of the check's own.
 */
public interface HealthCheck {
  /** The check's name, e.g. {@code tasklane-worker-handlers}. */
  String name();

  /** Starts the check; any thread. */
  CompletableFuture<HealthReport> check();
}
