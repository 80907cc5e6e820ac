package io.tasklane.bench.internal;

import io.tasklane.bench.EffectHandler;
import io.tasklane.bench.LaneHandler;
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
        .sysProp(
            "tasklane.scheduler.limits." + RateLimitScenario.LIMIT + ".rate",
            RateLimitScenario.RATE + "/s")
        .sysProp(
            "tasklane.scheduler.limits." + RateLimitScenario.LIMIT + ".burst",
            String.valueOf(RateLimitScenario.BURST))
        .sysProp("tasklane.scheduler.kafka.session.timeout.ms", SESSION_TIMEOUT_MS);
  }

  /**
   * The bench worker ({@code io.tasklane.bench.BenchWorkerApp}: the no-op handler and the 1 s
   * {@code sleep} handler with 200 threads: room for the whole failover load on one worker), named
   * {@code name}, no idempotency store; the {@code effect} and lane handlers are not consumed here.
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
        .sysProp("tasklane.worker.handlers." + EffectHandler.NAME + ".enabled", "false")
        .sysProp("tasklane.worker.handlers." + LaneHandler.NAME + ".enabled", "false")
        .sysProp("tasklane.worker.handlers." + LaneHandler.LIMITED + ".enabled", "false")
        .sysProp("tasklane.worker.method-calls.enabled", "false");
  }

  /**
   * A worker of the lanes scenario: the same app consuming only the lane handlers ({@link
   * LaneHandler}: {@value LaneHandler#NAME} with 4 threads and 512 in flight, {@value
   * LaneHandler#LIMITED} with 32 threads), no idempotency store, each call's start and end appended
   * to {@code events}.
   */
  static JavaProcess.Builder laneWorker(TasklaneApps apps, String name, java.nio.file.Path events) {
    return apps.worker(name, "io.tasklane.bench.BenchWorkerApp", "bench")
        .jvmArg("-Xmx384m")
        .sysProp("tasklane.worker.name", name)
        .sysProp("tasklane.worker.concurrency", "4")
        .sysProp("tasklane.worker.session-timeout", SESSION_TIMEOUT_MS + "ms")
        .sysProp("tasklane.worker.handlers.noop.enabled", "false")
        .sysProp("tasklane.worker.handlers.sleep.enabled", "false")
        .sysProp("tasklane.worker.handlers." + EffectHandler.NAME + ".enabled", "false")
        .sysProp("tasklane.worker.handlers." + LaneHandler.NAME + ".max-in-flight", "512")
        .sysProp("tasklane.worker.handlers." + LaneHandler.LIMITED + ".concurrency", "32")
        .sysProp("tasklane.worker.idempotency.enabled", "false")
        .sysProp("tasklane.worker.method-calls.enabled", "false")
        .sysProp(LaneHandler.EVENTS_PROPERTY, events.toString());
  }

  /** Threads of the {@code effect} handler, and connections of the worker's pool beyond them. */
  static final int EFFECT_CONCURRENCY = 8;

  /**
   * The exactly-once worker of the idempotent measure: the same app consuming only the {@code
   * effect} handler ({@link EffectHandler}, {@link #EFFECT_CONCURRENCY} threads, 64 in flight),
   * with the run's database as its {@code DataSource}, so that the JDBC idempotency store marks
   * each task in the handler's transaction.
   */
  static JavaProcess.Builder effectWorker(TasklaneApps apps, String name) {
    return apps.worker(name, "io.tasklane.bench.BenchWorkerApp", "bench")
        .jvmArg("-Xmx384m")
        .sysProp("tasklane.worker.name", name)
        .sysProp("tasklane.worker.session-timeout", SESSION_TIMEOUT_MS + "ms")
        .sysProp("tasklane.worker.handlers.noop.enabled", "false")
        .sysProp("tasklane.worker.handlers.sleep.enabled", "false")
        .sysProp("tasklane.worker.handlers." + LaneHandler.NAME + ".enabled", "false")
        .sysProp("tasklane.worker.handlers." + LaneHandler.LIMITED + ".enabled", "false")
        .sysProp(
            "tasklane.worker.handlers." + EffectHandler.NAME + ".concurrency",
            String.valueOf(EFFECT_CONCURRENCY))
        .sysProp("tasklane.worker.handlers." + EffectHandler.NAME + ".max-in-flight", "64")
        .sysProp("tasklane.worker.method-calls.enabled", "false")
        .sysProp("datasources.default.url", apps.jdbcUrl())
        .sysProp("datasources.default.username", apps.user())
        .sysProp("datasources.default.password", apps.password())
        .sysProp("datasources.default.maximum-pool-size", String.valueOf(EFFECT_CONCURRENCY + 2));
  }
}
