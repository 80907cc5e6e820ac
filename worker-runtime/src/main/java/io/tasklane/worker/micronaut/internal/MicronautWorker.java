package io.tasklane.worker.micronaut.internal;

import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.core.annotation.Internal;
import io.tasklane.worker.IdempotencyStore;
import io.tasklane.worker.internal.WorkerRuntime;
import io.tasklane.worker.internal.WorkerSettings;
import io.tasklane.worker.spi.WorkerMetrics;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Optional;

/**
 * The worker in a Micronaut context: starts the {@link WorkerRuntime} on the {@link StartupEvent}
 * (on the start-up thread, after executable-method processing found the handlers) and stops it when
 * the context closes (on the closing thread, waiting up to the grace period). Uses the context's
 * {@link IdempotencyStore}, {@link WorkerMetrics} and {@link Clock} beans when it has them.
 */
@Singleton
@Internal
@Requires(property = "tasklane.worker.enabled", notEquals = "false")
public final class MicronautWorker implements ApplicationEventListener<StartupEvent> {
  private final WorkerRuntime runtime;

  MicronautWorker(
      WorkerSettings settings,
      MicronautHandlerBeans beans,
      Optional<IdempotencyStore> store,
      Optional<WorkerMetrics> metrics,
      Optional<Clock> clock) {
    this.runtime =
        new WorkerRuntime(
            settings,
            beans,
            store.orElse(IdempotencyStore.NONE),
            metrics.orElse(WorkerMetrics.NOOP),
            clock.orElse(Clock.systemUTC()));
  }

  @Override
  public void onApplicationEvent(StartupEvent event) {
    runtime.start();
  }

  /** The worker this bean runs. */
  public WorkerRuntime runtime() {
    return runtime;
  }

  @PreDestroy
  void stop() {
    runtime.stop();
  }
}
