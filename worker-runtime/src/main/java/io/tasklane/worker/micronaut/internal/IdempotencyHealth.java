package io.tasklane.worker.micronaut.internal;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.tasklane.worker.IdempotencyStore;
import io.tasklane.worker.internal.IdempotencyCheck;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.reactivestreams.Publisher;

/**
 * Readiness, {@code /health} detail {@code tasklane-worker-idempotency}: {@link IdempotencyCheck}
 * on the context's {@link IdempotencyStore} (none without a DataSource). The lookup runs on the
 * check's own thread, never the caller's. Present only when micronaut-management is on the
 * classpath.
 */
@Singleton
@Internal
@Requires(classes = HealthIndicator.class)
@Requires(property = "tasklane.worker.enabled", notEquals = "false")
public final class IdempotencyHealth implements HealthIndicator {
  private final IdempotencyCheck check;

  IdempotencyHealth(Optional<IdempotencyStore> store) {
    this.check = new IdempotencyCheck(store.orElse(IdempotencyStore.NONE));
  }

  @Override
  public Publisher<HealthResult> getResult() {
    return Publishers.fromCompletableFuture(() -> check.check().thenApply(Health::result));
  }

  @PreDestroy
  void close() {
    check.close();
  }
}
