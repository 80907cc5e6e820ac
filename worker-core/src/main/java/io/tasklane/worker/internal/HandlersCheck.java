package io.tasklane.worker.internal;

import io.tasklane.worker.spi.HealthCheck;
import io.tasklane.worker.spi.HealthReport;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Liveness check {@code tasklane-worker-handlers}: UP while the worker runs at least one handler
 * and every handler's consumer thread is alive; DOWN before start, after stop, without handlers, or
 * when a consumer thread died (restarting the process is the cure). Details: the state and each
 * handler with {@code consuming} or {@code stopped}. Answers at once, on the caller's thread.
 */
public final class HandlersCheck implements HealthCheck {
  public static final String NAME = "tasklane-worker-handlers";

  private final WorkerRuntime runtime;

  public HandlersCheck(WorkerRuntime runtime) {
    this.runtime = runtime;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletableFuture<HealthReport> check() {
    Map<String, Boolean> consumers = runtime.consumers();
    String state = runtime.state();
    Map<String, Object> handlers = new LinkedHashMap<>();
    consumers.forEach((name, alive) -> handlers.put(name, alive ? "consuming" : "stopped"));
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("state", state);
    details.put("handlers", handlers);
    boolean up =
        "RUNNING".equals(state)
            && !consumers.isEmpty()
            && consumers.values().stream().allMatch(Boolean::booleanValue);
    if (consumers.isEmpty()) {
      details.put("error", "no handler is registered and enabled in this worker");
    }
    return CompletableFuture.completedFuture(HealthChecks.report(NAME, up, details));
  }
}
