package io.tasklane.worker.micronaut.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Internal;
import io.tasklane.worker.internal.MicrometerWorkerMetrics;
import jakarta.inject.Singleton;

/** The worker's Micrometer meters, when the context has a MeterRegistry bean. */
@Factory
@Internal
@Requires(classes = MeterRegistry.class)
public class MicrometerFactory {
  @Singleton
  @Requires(beans = MeterRegistry.class)
  MicrometerWorkerMetrics workerMetrics(MeterRegistry registry) {
    return new MicrometerWorkerMetrics(registry);
  }
}
