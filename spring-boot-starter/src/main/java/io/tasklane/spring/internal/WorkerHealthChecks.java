package io.tasklane.spring.internal;

import io.tasklane.worker.spi.HealthCheck;
import java.util.List;

/**
 * The worker's health checks as one bean, so the context closes the ones holding clients (Kafka
 * admin, database) when it closes.
 */
final class WorkerHealthChecks implements AutoCloseable {
  private final List<HealthCheck> checks;

  WorkerHealthChecks(List<HealthCheck> checks) {
    this.checks = List.copyOf(checks);
  }

  List<HealthCheck> checks() {
    return checks;
  }

  @Override
  public void close() throws Exception {
    for (HealthCheck check : checks) {
      if (check instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }
  }
}
