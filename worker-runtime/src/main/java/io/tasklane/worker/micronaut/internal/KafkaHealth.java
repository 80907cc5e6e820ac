package io.tasklane.worker.micronaut.internal;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.tasklane.worker.internal.KafkaCheck;
import io.tasklane.worker.internal.WorkerSettings;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;

/**
 * Readiness, {@code /health} detail {@code tasklane-worker-kafka}: {@link KafkaCheck}. Who sees the
 * details at all is the application's {@code endpoints.health.details-visible} (Micronaut's
 * default: authenticated callers only). Non-blocking: the answer completes the health request.
 * Present only when micronaut-management is on the classpath.
 */
@Singleton
@Internal
@Requires(classes = HealthIndicator.class)
@Requires(property = "tasklane.worker.enabled", notEquals = "false")
public final class KafkaHealth implements HealthIndicator {
  private final KafkaCheck check;

  KafkaHealth(WorkerSettings settings) {
    this.check = new KafkaCheck(settings.config());
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
