package io.tasklane.worker.internal;

import io.tasklane.worker.WorkerConfig;
import io.tasklane.worker.spi.HealthCheck;
import io.tasklane.worker.spi.HealthReport;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;

/**
 * Readiness check {@code tasklane-worker-kafka}: UP with the number of brokers when the worker's
 * Kafka cluster (its bootstrap servers and {@code kafka.*} settings) answers a cluster description
 * within {@link #TIMEOUT}, DOWN naming the error otherwise. The details never name the cluster's
 * addresses. Non-blocking: the admin client's thread completes the answer. Its admin client is made
 * on first check and closed by {@link #close}.
 */
public final class KafkaCheck implements HealthCheck, AutoCloseable {
  public static final String NAME = "tasklane-worker-kafka";
  static final Duration TIMEOUT = Duration.ofSeconds(3);

  private final WorkerConfig config;
  private Admin admin;

  public KafkaCheck(WorkerConfig config) {
    this.config = config;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletableFuture<HealthReport> check() {
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
                  details.put("error", HealthChecks.describe(error));
                  return HealthChecks.report(NAME, false, details);
                }
                details.put("brokers", nodes.size());
                return HealthChecks.report(NAME, true, details);
              });
    } catch (RuntimeException e) {
      details.put("error", HealthChecks.describe(e));
      return CompletableFuture.completedFuture(HealthChecks.report(NAME, false, details));
    }
  }

  private synchronized Admin admin() {
    if (admin == null) {
      admin = KafkaClients.admin(config);
    }
    return admin;
  }

  /** Closes the admin client, if one was made; any thread. */
  @Override
  public synchronized void close() {
    if (admin != null) {
      admin.close(Duration.ofSeconds(5));
      admin = null;
    }
  }
}
