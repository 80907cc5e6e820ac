package io.tasklane.spring.internal;

import io.tasklane.worker.IdempotencyStore;
import io.tasklane.worker.internal.ConsumersCheck;
import io.tasklane.worker.internal.HandlersCheck;
import io.tasklane.worker.internal.IdempotencyCheck;
import io.tasklane.worker.internal.KafkaCheck;
import io.tasklane.worker.internal.WorkerSettings;
import io.tasklane.worker.spi.HealthCheck;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The worker's Actuator health contributor {@code tasklaneWorker}, when Actuator is on the
 * classpath and the worker runs: the neutral checks {@code tasklane-worker-handlers}, {@code
 * tasklane-worker-consumers}, {@code tasklane-worker-kafka} and, with an idempotency store, {@code
 * tasklane-worker-idempotency}.
 */
@AutoConfiguration(after = TasklaneWorkerAutoConfiguration.class)
@ConditionalOnClass(
    value = HealthIndicator.class,
    name = "io.tasklane.worker.internal.WorkerRuntime")
@ConditionalOnBean(SpringWorker.class)
public class TasklaneWorkerHealthAutoConfiguration {
  @Bean
  WorkerHealthChecks tasklaneWorkerHealthChecks(
      SpringWorker worker, WorkerSettings settings, ObjectProvider<IdempotencyStore> store) {
    List<HealthCheck> checks = new ArrayList<>();
    checks.add(new HandlersCheck(worker.runtime()));
    checks.add(new ConsumersCheck(worker.runtime()));
    checks.add(new KafkaCheck(settings.config()));
    IdempotencyStore s = store.getIfAvailable();
    if (s != null && s != IdempotencyStore.NONE) {
      checks.add(new IdempotencyCheck(s));
    }
    return new WorkerHealthChecks(checks);
  }

  @Bean
  HealthContributor tasklaneWorkerHealthContributor(WorkerHealthChecks checks) {
    Map<String, HealthIndicator> indicators = new LinkedHashMap<>();
    for (HealthCheck check : checks.checks()) {
      indicators.put(check.name(), new WorkerHealthIndicator(check));
    }
    return CompositeHealthContributor.fromMap(indicators);
  }
}
