/**
 * The worker's service-provider interface, implemented by a framework adapter (tasklane-worker-
 * runtime for Micronaut): {@link io.tasklane.worker.spi.HandlerBeans} finds the handler beans,
 * {@link io.tasklane.worker.spi.WorkerTransactions} runs a handler's database work in a
 * transaction, {@link io.tasklane.worker.spi.WorkerMetrics} receives the meters' events and {@link
 * io.tasklane.worker.spi.HealthCheck}s answer the framework's health endpoint. Applications do not
 * use it directly.
 */
package io.tasklane.worker.spi;
