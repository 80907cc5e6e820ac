package io.tasklane.worker.internal;

import io.tasklane.worker.IdempotencyStore;
import io.tasklane.worker.spi.HealthCheck;
import io.tasklane.worker.spi.HealthReport;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Readiness check {@code tasklane-worker-idempotency}: UP when the idempotency store answers a
 * lookup (the one every attempt starts with) within {@link #TIMEOUT}, DOWN naming the store's error
 * otherwise — while it is DOWN every attempt is answered FAILED. The lookup runs on a thread of its
 * own ({@code tasklane-worker-health}), never on the caller's; a lookup still waiting for a
 * connection is shared by later checks instead of starting another. Without a store (no DataSource)
 * it is UP with {@code store: none}. {@link #close} stops the thread.
 */
public final class IdempotencyCheck implements HealthCheck, AutoCloseable {
  public static final String NAME = "tasklane-worker-idempotency";
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

  /** A check of {@code store}; {@link IdempotencyStore#NONE} when the worker has none. */
  public IdempotencyCheck(IdempotencyStore store) {
    this.store = store;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletableFuture<HealthReport> check() {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("store", store == IdempotencyStore.NONE ? "none" : store.getClass().getName());
    return lookup()
        .completeOnTimeout(null, TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .handle(
            (answered, error) -> {
              if (error != null) {
                details.put("error", HealthChecks.describe(error));
                return HealthChecks.report(NAME, false, details);
              }
              if (answered == null) {
                details.put(
                    "error",
                    HealthChecks.describe(
                        new TimeoutException("no answer within " + TIMEOUT.toSeconds() + " s")));
                return HealthChecks.report(NAME, false, details);
              }
              return HealthChecks.report(NAME, true, details);
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

  /** Stops the lookup thread; any thread. */
  @Override
  public void close() {
    executor.shutdownNow();
  }
}
