/**
 * The Micronaut adapter of the framework-neutral worker (tasklane-worker-core): finds the handler
 * beans at start-up ({@link io.tasklane.worker.micronaut.internal.MicronautHandlerBeans}), runs the
 * worker with the context ({@link io.tasklane.worker.micronaut.internal.MicronautWorker}), reads
 * the settings and makes the idempotency store and meters from the context's beans, and publishes
 * the worker's health checks as Micronaut health indicators. Not an API.
 */
package io.tasklane.worker.micronaut.internal;
