package io.tasklane.bench.internal;

import io.tasklane.harness.TasklaneApps;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.Secrets;

/**
 * The bench's settings of the relay, a scheduler and the bench worker on top of the {@link
 * TasklaneApps} recipes.
 */
final class Recipes {
  /** The bench's admin token (bulk actions need role admin), random per run. */
  static final String ADMIN_TOKEN = Secrets.token();

  private Recipes() {}

  static JavaProcess.Builder relay(TasklaneApps apps, String name) {
    return apps.relay(name).jvmArg("-Xmx512m");
  }

  /**
   * A scheduler instance with one standby replica per store (used only when a second instance runs)
   * and the default 6 s session timeout, so that a killed instance is noticed quickly; it accepts
   * {@link TasklaneApps#TOKEN} (operator) and {@link #ADMIN_TOKEN} (admin).
   */
  static JavaProcess.Builder scheduler(TasklaneApps apps, String name, int httpPort) {
    return apps.scheduler(name, httpPort)
        .jvmArg("-Xmx512m")
        .sysProp(
            "tasklane.scheduler.api.tokens",
            "operator:" + TasklaneApps.TOKEN + ":operator,admin:" + ADMIN_TOKEN + ":admin")
        .sysProp("tasklane.scheduler.num-standby-replicas", "1");
  }

  /**
   * The bench worker ({@code io.tasklane.bench.BenchWorkerApp}: the no-op handler and the 1 s
   * {@code sleep} handler with 200 threads: room for the whole failover load on one worker), named
   * {@code name}, no idempotency store.
   */
  static JavaProcess.Builder worker(TasklaneApps apps, String name) {
    return apps.worker(name, "io.tasklane.bench.BenchWorkerApp", "bench")
        .jvmArg("-Xmx384m")
        .sysProp("tasklane.worker.name", name)
        .sysProp("tasklane.worker.concurrency", "4")
        .sysProp("tasklane.worker.handlers.sleep.concurrency", "200")
        .sysProp("tasklane.worker.handlers.noop.max-in-flight", "512")
        .sysProp("tasklane.worker.idempotency.enabled", "false")
        .sysProp("tasklane.worker.method-calls.enabled", "false");
  }
}
