package io.tasklane.worker.internal;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.tasklane.worker.IdempotencyStore;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.reactivestreams.Publisher;

/**
 * Readiness, {@code /health} detail {@code tasklane-worker-idempotency}: UP when the idempotency
 * store answers a lookup (the one every attempt starts with) within {@link #TIMEOUT}, DOWN naming
 * the store's error otherwise — while it is DOWN every attempt is answered FAILED. The lookup runs
 * on a thread of its own, never on the caller's; a lookup still waiting for a connection is shared
 * by later checks instead of starting another. Without a store (no DataSource) it is UP with {@code
 * store: none}. Present only when micronaut-management is on the classpath.
 */
@Singleton
@Internal
@Requires(classes = HealthIndicator.class)
@Requires(property = "tasklane.worker.enabled", notEquals = "false")
public final class IdempotencyHealth implements HealthIndicator {
  static final String NAME = "tasklane-worker-idempotency";
  static final Duration TIMEOUT = Duration.ofSeconds(3);

  /** A task id no task has (version nibble 0): the lookup finds nothing and writes nothing. */
  static final String PROBE_ID = "00000000-0000-0000-0000-000000000000";

  private final IdempotencyStore store;
  private final ExecutorService executor =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "tasklane-worker-health");
            t.setDaemon(true);
            return t;
          });
  private CompletableFuture<Boolean> lookup;

  IdempotencyHealth(Optional<IdempotencyStore> store) {
    this.store = store.orElse(IdempotencyStore.NONE);
  }

  @Override
  public Publisher<HealthResult> getResult() {
    return Publishers.fromCompletableFuture(this::probe);
  }

  private CompletableFuture<HealthResult> probe() {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("store", store == IdempotencyStore.NONE ? "none" : store.getClass().getName());
    return lookup()
        .completeOnTimeout(null, TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .handle(
            (answered, error) -> {
              if (error != null) {
                details.put("error", Health.describe(error));
                return Health.result(NAME, HealthStatus.DOWN, details);
              }
              if (answered == null) {
                details.put(
                    "error",
                    Health.describe(
                        new TimeoutException("no answer within " + TIMEOUT.toSeconds() + " s")));
                return Health.result(NAME, HealthStatus.DOWN, details);
              }
              return Health.result(NAME, HealthStatus.UP, details);
            });
  }

  /** The running lookup, or a new one when none runs. */
  private synchronized CompletableFuture<Boolean> lookup() {
    if (lookup == null || lookup.isDone()) {
      lookup =
          CompletableFuture.supplyAsync(
              () -> {
                store.isProcessed(PROBE_ID);
                return Boolean.TRUE;
              },
              executor);
    }
    return lookup.copy();
  }

  @PreDestroy
  void close() {
    executor.shutdownNow();
  }
}
