package io.tasklane.worker.micronaut.internal;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Liveness;
import io.tasklane.worker.internal.HandlersCheck;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;

/**
 * Liveness, {@code /health} detail {@code tasklane-worker-handlers}: {@link HandlersCheck},
 * answered on the caller's thread. Present only when micronaut-management is on the classpath.
 */
@Singleton
@Liveness
@Internal
@Requires(classes = HealthIndicator.class)
@Requires(property = "tasklane.worker.enabled", notEquals = "false")
public final class HandlersHealth implements HealthIndicator {
  private final HandlersCheck check;

  HandlersHealth(MicronautWorker worker) {
    this.check = new HandlersCheck(worker.runtime());
  }

  @Override
  public Publisher<HealthResult> getResult() {
    return Publishers.just(Health.result(check.check().join()));
  }
}
