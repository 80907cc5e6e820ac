package io.tasklane.bench.internal;

import io.tasklane.harness.TasklaneApps;
import io.tasklane.testkit.JavaProcess;

/**
 * The bench's settings of the relay, a scheduler and the bench worker on top of the {@link
 * TasklaneApps} recipes.
 */
final class Recipes {
  private Recipes() {}

  static JavaProcess.Builder relay(TasklaneApps apps, String name) {
    return apps.relay(name).jvmArg("-Xmx512m");
  }

  /**
   * A scheduler instance with one standby replica per store (used only when a second instance runs)
   * and a 6 s session timeout, so that a killed instance is noticed quickly.
   */
  static JavaProcess.Builder scheduler(TasklaneApps apps, String name, int httpPort) {
    return apps.scheduler(name, httpPort)
        .jvmArg("-Xmx512m")
        .sysProp("tasklane.scheduler.num-standby-replicas", "1")
        .sysProp("tasklane.scheduler.kafka.session.timeout.ms", "6000")
        .sysProp("tasklane.scheduler.kafka.heartbeat.interval.ms", "1500");
  }

  /** The no-op worker ({@code io.tasklane.bench.BenchWorkerApp}), no idempotency store. */
  static JavaProcess.Builder worker(TasklaneApps apps, String name) {
    return apps.worker(name, "io.tasklane.bench.BenchWorkerApp", "bench")
        .jvmArg("-Xmx384m")
        .sysProp("tasklane.worker.concurrency", "4")
        .sysProp("tasklane.worker.handlers.noop.max-in-flight", "512")
        .sysProp("tasklane.worker.idempotency.enabled", "false")
        .sysProp("tasklane.worker.method-calls.enabled", "false");
  }
}
