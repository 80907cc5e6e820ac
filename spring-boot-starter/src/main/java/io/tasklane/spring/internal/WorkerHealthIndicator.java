package io.tasklane.spring.internal;

import io.tasklane.worker.spi.HealthCheck;
import io.tasklane.worker.spi.HealthReport;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * One neutral {@link HealthCheck} as an Actuator indicator: UP or DOWN with the report's details.
 * Called on the health endpoint's thread, which waits for the check's answer up to 10 s (DOWN after
 * that).
 */
final class WorkerHealthIndicator implements HealthIndicator {
  private final HealthCheck check;

  WorkerHealthIndicator(HealthCheck check) {
    this.check = check;
  }

  @Override
  public Health health() {
    try {
      HealthReport report = check.check().get(10, TimeUnit.SECONDS);
      return (report.up() ? Health.up() : Health.down()).withDetails(report.details()).build();
    } catch (TimeoutException e) {
      return Health.down().withDetail("error", "no answer within 10 s").build();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Health.down().withDetail("error", "interrupted").build();
    } catch (Exception e) {
      return Health.down(e).build();
    }
  }
}
