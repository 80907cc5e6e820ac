package io.tasklane.worker.internal;

import io.tasklane.worker.spi.HealthCheck;
import io.tasklane.worker.spi.HealthReport;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Readiness check {@code tasklane-worker-consumers}: UP once the worker runs and every handler's
 * consumer has joined its group and fetches (a poll returned after its first assignment, possibly
 * an empty one when other workers hold every partition), so that a worker that reports ready takes
 * tasks at once; DOWN before that, after stop and without handlers. Details: the state and each
 * handler with {@code fetching} or {@code joining}. Answers at once, on the caller's thread.
 */
public final class ConsumersCheck implements HealthCheck {
  public static final String NAME = "tasklane-worker-consumers";

  private final Supplier<String> state;
  private final Supplier<Map<String, Boolean>> fetching;

  public ConsumersCheck(WorkerRuntime runtime) {
    this(runtime::state, runtime::fetching);
  }

  ConsumersCheck(Supplier<String> state, Supplier<Map<String, Boolean>> fetching) {
    this.state = state;
    this.fetching = fetching;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletableFuture<HealthReport> check() {
    String s = state.get();
    Map<String, Boolean> consumers = fetching.get();
    Map<String, Object> handlers = new LinkedHashMap<>();
    consumers.forEach((name, f) -> handlers.put(name, f ? "fetching" : "joining"));
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("state", s);
    details.put("handlers", handlers);
    boolean up =
        "RUNNING".equals(s)
            && !consumers.isEmpty()
            && consumers.values().stream().allMatch(Boolean::booleanValue);
    return CompletableFuture.completedFuture(HealthChecks.report(NAME, up, details));
  }
}
