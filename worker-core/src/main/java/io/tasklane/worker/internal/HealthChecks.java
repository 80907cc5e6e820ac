package io.tasklane.worker.internal;

import io.tasklane.worker.spi.HealthReport;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Shared by the worker's health checks. Stateless; any thread. */
final class HealthChecks {
  private HealthChecks() {}

  static HealthReport report(String name, boolean up, Map<String, Object> details) {
    return new HealthReport(name, up, details);
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
