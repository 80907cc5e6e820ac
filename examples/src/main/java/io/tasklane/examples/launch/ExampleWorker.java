package io.tasklane.examples.launch;

import io.tasklane.examples.orders.LateHandlers;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.testkit.JavaProcess;

/** The launch recipe of the example worker ({@code io.tasklane.examples.WorkerApp}). */
public final class ExampleWorker {
  private ExampleWorker() {}

  /**
   * The example worker on the run's database and broker, 8 handler threads, a static member of its
   * groups named {@code name}; {@code late} adds the handler that is deployed late. Its HTTP server
   * ({@code /health}, {@code /prometheus}) listens on any free port, so several workers share a
   * machine.
   */
  public static JavaProcess.Builder recipe(TasklaneApps apps, String name, boolean late) {
    return recipe(apps, name, late, -1);
  }

  /** The example worker with its {@code /health} and {@code /prometheus} on {@code httpPort}. */
  public static JavaProcess.Builder recipe(
      TasklaneApps apps, String name, boolean late, int httpPort) {
    return apps.worker(name, "io.tasklane.examples.WorkerApp", "examples")
        .sysProp(LateHandlers.ENABLED, String.valueOf(late))
        .sysProp("datasources.default.url", apps.jdbcUrl())
        .sysProp("datasources.default.username", apps.user())
        .sysProp("datasources.default.password", apps.password())
        .sysProp("tasklane.worker.concurrency", "8")
        // a static group member: restarted after a crash, it takes its partitions back at once
        .sysProp("tasklane.worker.kafka.group.instance.id", name)
        .sysProp("micronaut.server.port", String.valueOf(httpPort));
  }
}
