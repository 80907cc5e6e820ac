/**
 * Machinery of the worker, free of any framework: handler registration, one consumer thread and one
 * pool per handler, offset tracking, timeouts, result/log/dead-letter publishing, heartbeats,
 * recurring publication, health checks and metrics. A framework adapter drives it through {@link
 * io.tasklane.worker.internal.WorkerRuntime} and {@link io.tasklane.worker.spi}. Not an API.
 */
package io.tasklane.worker.internal;
