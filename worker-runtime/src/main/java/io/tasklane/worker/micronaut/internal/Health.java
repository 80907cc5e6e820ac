package io.tasklane.worker.micronaut.internal;

import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthResult;
import io.tasklane.worker.spi.HealthReport;

/** Shared by the worker's health indicators (loaded only with micronaut-management). */
final class Health {
  private Health() {}

  /** The report as Micronaut's health result: UP or DOWN, with the report's details. */
  static HealthResult result(HealthReport report) {
    return HealthResult.builder(report.name(), report.up() ? HealthStatus.UP : HealthStatus.DOWN)
        .details(report.details())
        .build();
  }
}
