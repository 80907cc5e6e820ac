package io.tasklane.examples;

import io.micronaut.runtime.Micronaut;

/**
 * The demo's worker service: a Micronaut app whose {@code @TaskHandler} beans run the order tasks.
 * Configure it with system properties or environment variables (datasources.default.*,
 * tasklane.worker.*). Its HTTP server ({@code micronaut.server.port}, 8081; -1 for any free port)
 * serves {@code /health} (the worker's Kafka, idempotency-store and handler indicators; {@code
 * /health/liveness}, {@code /health/readiness}) and {@code /prometheus}.
 */
public final class WorkerApp {
  private WorkerApp() {}

  public static void main(String[] args) {
    Micronaut.build(args).mainClass(WorkerApp.class).start();
  }
}
