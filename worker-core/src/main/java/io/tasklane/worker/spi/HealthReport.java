package io.tasklane.worker.spi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One health check's answer, for the framework adapter to publish in its own form (e.g. a Micronaut
 * {@code HealthResult}). Immutable.
 *
 * @param name the check's name, e.g. {@code tasklane-worker-kafka}
 * @param up whether the check passed
 * @param details what the check found, in insertion order; never the cluster's addresses
 */
public record HealthReport(String name, boolean up, Map<String, Object> details) {
  public HealthReport {
    details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
  }
}
