package io.tasklane.worker.internal;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Liveness;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import org.reactivestreams.Publisher;

/**
 * Liveness, {@code /health} detail {@code tasklane-worker-handlers}: UP while the worker runs at
 * least one handler and every handler's consumer thread is alive; DOWN before start, after stop,
 * without handlers, or when a consumer thread died (restarting the process is the cure). Details:
 * the state and each handler with {@code consuming} or {@code stopped}. Present only when
 * micronaut-management is on the classpath.
 */
@Singleton
@Liveness
@Internal
@Requires(classes = HealthIndicator.class)
@Requires(property = "tasklane.worker.enabled", notEquals = "false")
public final class HandlersHealth implements HealthIndicator {
  static final String NAME = "tasklane-worker-handlers";

  private final WorkerRuntime runtime;

  HandlersHealth(WorkerRuntime runtime) {
    this.runtime = runtime;
  }

  @Override
  public Publisher<HealthResult> getResult() {
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
    return Publishers.just(Health.result(NAME, up ? HealthStatus.UP : HealthStatus.DOWN, details));
  }
}
