package io.tasklane.worker.internal;

import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthResult;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Shared by the worker's health indicators (loaded only with micronaut-management). */
final class Health {
  private Health() {}

  static HealthResult result(String name, HealthStatus status, Map<String, Object> details) {
    return HealthResult.builder(name, status).details(details).build();
  }

  /** The error's type and message, wrappers of asynchronous calls removed. */
  static String describe(Throwable error) {
    Throwable e = error;
    while ((e instanceof CompletionException || e instanceof ExecutionException)
        && e.getCause() != null) {
      e = e.getCause();
    }
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }
}
