package io.tasklane.bench.internal;

import java.nio.file.Path;
import java.util.List;

/**
 * What one benchmark run does.
 *
 * @param home the Tasklane checkout
 * @param scenarios scenario names in run order
 * @param quick the short mode (for the record in results.json)
 * @param tasks N of throughput and peer
 * @param latencyRate offered tasks/s of latency
 * @param latencySeconds duration of latency
 * @param pending far-future tasks pending during delay (P)
 * @param delayTasks tasks due during delay (M)
 * @param delayWindowSeconds the M tasks are due over this window
 * @param scalePending tasks the scale scenario admits
 * @param failoverRate offered tasks/s during failover
 * @param failoverSeconds duration of the failover load (the kill is at a third)
 * @param jfr record the apps with JFR (files next to the logs)
 * @param writeDocs regenerate docs/benchmarks.md and its charts
 */
public record BenchOptions(
    Path home,
    List<String> scenarios,
    boolean quick,
    int tasks,
    int latencyRate,
    int latencySeconds,
    long pending,
    int delayTasks,
    int delayWindowSeconds,
    long scalePending,
    int failoverRate,
    int failoverSeconds,
    boolean jfr,
    boolean writeDocs) {

  /** Every scenario in the order a full run takes them. */
  public static final List<String> ALL =
      List.of("throughput", "peer", "latency", "scale", "delay", "failover");

  public BenchOptions {
    for (String s : scenarios) {
      if (!ALL.contains(s)) {
        throw new IllegalArgumentException("unknown scenario " + s + "; known: " + ALL);
      }
    }
    scenarios = ALL.stream().filter(scenarios::contains).toList();
    if (tasks < 1
        || latencyRate < 1
        || latencySeconds < 1
        || delayTasks < 1
        || delayWindowSeconds < 1
        || failoverRate < 1
        || failoverSeconds < 3
        || pending < 0
        || scalePending < 0) {
      throw new IllegalArgumentException("counts, rates and durations must be positive");
    }
  }

  public boolean has(String scenario) {
    return scenarios.contains(scenario);
  }
}
