package io.tasklane.scheduler.internal;

import io.micronaut.context.annotation.Factory;
import io.micronaut.core.annotation.Internal;
import io.tasklane.core.Topics;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.internal.api.InterInstanceClient;
import io.tasklane.scheduler.internal.lifecycle.HandlerWorkers;
import io.tasklane.scheduler.internal.ops.Alerts;
import io.tasklane.scheduler.internal.ops.HandlerLag;
import io.tasklane.scheduler.internal.ops.HandlerSettingsStore;
import io.tasklane.scheduler.internal.ops.RateLimitStore;
import io.tasklane.scheduler.internal.ops.RecordSender;
import io.tasklane.scheduler.internal.ops.StreamsAccess;
import io.tasklane.scheduler.internal.ops.TopicWatcher;
import io.tasklane.scheduler.internal.ops.WorkerRegistry;
import jakarta.inject.Singleton;

/**
 * The scheduler's services as Micronaut beans, one instance each: the ones {@link SchedulerRuntime}
 * made when the context started, so a controller, a query or a health indicator receives only what
 * it uses and never the runtime. Asking for any of them creates the runtime first (a failed config
 * or topic check fails that too); none of them is closed by the context, the runtime closes what
 * needs closing. Called on the context's threads when a bean is created.
 */
@Factory
@Internal
final class SchedulerServices {
  @Singleton
  SchedulerConfig config(SchedulerRuntime runtime) {
    return runtime.config;
  }

  @Singleton
  Topics topics(SchedulerRuntime runtime) {
    return runtime.topics;
  }

  @Singleton
  StreamsAccess streams(SchedulerRuntime runtime) {
    return runtime.local;
  }

  @Singleton
  RecordSender sender(SchedulerRuntime runtime) {
    return runtime.sender;
  }

  @Singleton
  InterInstanceClient interInstanceClient(SchedulerRuntime runtime) {
    return runtime.interInstanceClient;
  }

  @Singleton
  Alerts alerts(SchedulerRuntime runtime) {
    return runtime.alerts;
  }

  @Singleton
  HandlerWorkers workers(SchedulerRuntime runtime) {
    return runtime.workers;
  }

  @Singleton
  WorkerRegistry workerRegistry(SchedulerRuntime runtime) {
    return runtime.workerRegistry;
  }

  @Singleton
  HandlerSettingsStore handlerSettings(SchedulerRuntime runtime) {
    return runtime.handlerSettings;
  }

  @Singleton
  RateLimitStore rateLimits(SchedulerRuntime runtime) {
    return runtime.handlerSettings.rates();
  }

  @Singleton
  HandlerLag lag(SchedulerRuntime runtime) {
    return runtime.lag;
  }

  @Singleton
  TopicWatcher handlerTopics(SchedulerRuntime runtime) {
    return runtime.watcher;
  }
}
