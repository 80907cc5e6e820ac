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

  /**
   * The group session timeout of the bench's schedulers and workers: a kill -9'd instance's
   * partitions move after about this long. Below the broker's default lowest (6 s), which the bench
   * stack's broker lowers to 1 s ({@code group.min.session.timeout.ms}); the heartbeat follows at a
   * quarter of it.
   */
  static final String SESSION_TIMEOUT_MS = "2500";

  /**
   * The scheduler's maximum heap: its live heap stayed under 100 MiB in every scenario (69–95 MiB
   * after a full GC with 1,000,000 to 10,000,000 tasks pending); the stores live off the heap,
   * under {@code store-memory-mb}. G1 grows the committed heap to the maximum under the throughput
   * scenarios and keeps it, so the maximum is part of the resident size measured later.
   */
  static final String SCHEDULER_HEAP = "256m";

  private Recipes() {}

  static JavaProcess.Builder relay(TasklaneApps apps, String name) {
    return apps.relay(name).jvmArg("-Xmx512m");
  }

  /**
   * A scheduler instance with one standby replica per store (used only when a second instance runs)
   * and a {@link #SESSION_TIMEOUT_MS} session, so that a killed instance is noticed quickly; it
   * accepts {@link TasklaneApps#TOKEN} (operator) and {@link #ADMIN_TOKEN} (admin).
   */
  static JavaProcess.Builder scheduler(TasklaneApps apps, String name, int httpPort) {
    return apps.scheduler(name, httpPort)
        .jvmArg("-Xmx" + SCHEDULER_HEAP)
        .sysProp(
            "tasklane.scheduler.api.tokens",
            "operator:" + TasklaneApps.TOKEN + ":operator,admin:" + ADMIN_TOKEN + ":admin")
        .sysProp("tasklane.scheduler.num-standby-replicas", "1")
        .sysProp("tasklane.scheduler.kafka.session.timeout.ms", SESSION_TIMEOUT_MS);
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
        .sysProp("tasklane.worker.session-timeout", SESSION_TIMEOUT_MS + "ms")
        .sysProp("tasklane.worker.handlers.sleep.concurrency", "200")
        .sysProp("tasklane.worker.handlers.noop.max-in-flight", "512")
        .sysProp("tasklane.worker.idempotency.enabled", "false")
        .sysProp("tasklane.worker.method-calls.enabled", "false");
  }
}
