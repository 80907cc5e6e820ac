package io.tasklane.worker.micronaut.internal;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.tasklane.worker.internal.ConsumersCheck;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;

/**
 * Readiness, {@code /health} detail {@code tasklane-worker-consumers}: {@link ConsumersCheck}
 * (every handler's consumer joined its group and fetches), answered on the caller's thread. Present
 * only when micronaut-management is on the classpath.
 */
@Singleton
@Internal
@Requires(classes = HealthIndicator.class)
@Requires(property = "tasklane.worker.enabled", notEquals = "false")
public final class ConsumersHealth implements HealthIndicator {
  private final ConsumersCheck check;

  ConsumersHealth(MicronautWorker worker) {
    this.check = new ConsumersCheck(worker.runtime());
  }

  @Override
  public Publisher<HealthResult> getResult() {
    return Publishers.just(Health.result(check.check().join()));
  }
}
