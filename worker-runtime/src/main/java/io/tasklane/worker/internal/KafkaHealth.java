package io.tasklane.worker.internal;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.reactivestreams.Publisher;

/**
 * Readiness, {@code /health} detail {@code tasklane-worker-kafka}: UP with the number of brokers
 * when the worker's Kafka cluster (its bootstrap servers and {@code kafka.*} settings) answers a
 * cluster description within {@link #TIMEOUT}, DOWN naming the error otherwise. The details never
 * name the cluster's addresses; who sees them at all is the application's {@code
 * endpoints.health.details-visible} (Micronaut's default: authenticated callers only).
 * Non-blocking: the answer completes the health request. Present only when micronaut-management is
 * on the classpath.
 */
@Singleton
@Internal
@Requires(classes = HealthIndicator.class)
@Requires(property = "tasklane.worker.enabled", notEquals = "false")
public final class KafkaHealth implements HealthIndicator {
  static final String NAME = "tasklane-worker-kafka";
  static final Duration TIMEOUT = Duration.ofSeconds(3);

  private final WorkerSettings settings;
  private Admin admin;

  KafkaHealth(WorkerSettings settings) {
    this.settings = settings;
  }

  @Override
  public Publisher<HealthResult> getResult() {
    return Publishers.fromCompletableFuture(this::probe);
  }

  private CompletableFuture<HealthResult> probe() {
    Map<String, Object> details = new LinkedHashMap<>();
    try {
      DescribeClusterResult cluster =
          admin().describeCluster(new DescribeClusterOptions().timeoutMs((int) TIMEOUT.toMillis()));
      return cluster
          .nodes()
          .toCompletionStage()
          .toCompletableFuture()
          .handle(
              (nodes, error) -> {
                if (error != null) {
                  details.put("error", Health.describe(error));
                  return Health.result(NAME, HealthStatus.DOWN, details);
                }
                details.put("brokers", nodes.size());
                return Health.result(NAME, HealthStatus.UP, details);
              });
    } catch (RuntimeException e) {
      details.put("error", Health.describe(e));
      return CompletableFuture.completedFuture(Health.result(NAME, HealthStatus.DOWN, details));
    }
  }

  private synchronized Admin admin() {
    if (admin == null) {
      admin = KafkaClients.admin(settings.config());
    }
    return admin;
  }

  @PreDestroy
  synchronized void close() {
    if (admin != null) {
      admin.close(Duration.ofSeconds(5));
      admin = null;
    }
  }
}
