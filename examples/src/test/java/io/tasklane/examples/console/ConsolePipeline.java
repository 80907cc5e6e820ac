package io.tasklane.examples.console;

import io.micronaut.context.ApplicationContext;
import io.tasklane.examples.launch.ExampleWorker;
import io.tasklane.examples.orders.DemoSchema;
import io.tasklane.examples.orders.ScenarioService;
import io.tasklane.harness.Database;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.Startup;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.Secrets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;

/**
 * The full pipeline the console's browser tests look at: a database with the demo's tables, relay,
 * scheduler (viewer, operator and admin tokens) and example worker as processes, and the demo's
 * {@link ScenarioService} enqueueing through the outbox. {@link #close} stops every process it
 * started and the in-process context. Used from the test thread only.
 */
final class ConsolePipeline implements AutoCloseable {
  final String viewer = Secrets.token();
  final String admin = Secrets.token();
  final String operator = TasklaneApps.TOKEN;
  final int port = FreePorts.next();
  final Database db;
  final ScenarioService scenarios;
  private final List<AutoCloseable> open = new ArrayList<>();

  ConsolePipeline(LocalStack stack, Path home) throws Exception {
    String run = Long.toString(System.currentTimeMillis(), 36);
    db = Database.create(stack, "tasklane_console_" + run, DemoSchema::create);
    Path runDir = home.resolve("target/console-test/run-" + run);
    TasklaneApps apps =
        TasklaneApps.builder()
            .home(home)
            .runDir(runDir)
            .database(db.url(), db.user(), db.password())
            .bootstrap(stack.bootstrapServers())
            .namespace("console" + run)
            .build();
    try {
      List<JavaProcess> procs = new ArrayList<>();
      procs.add(track(apps.relay("relay").start()));
      procs.add(
          track(
              apps.scheduler("scheduler", port)
                  .sysProp(
                      "tasklane.scheduler.api.tokens",
                      String.join(
                          ",",
                          "viewer:" + viewer + ":viewer",
                          "operator:" + operator + ":operator",
                          "admin:" + admin + ":admin"))
                  .start()));
      procs.add(track(ExampleWorker.recipe(apps, "worker", false).start()));
      ApplicationContext orders =
          track(
              ApplicationContext.run(
                  Map.of(
                      "datasources.default.url", db.url(),
                      "datasources.default.username", db.user(),
                      "datasources.default.password", db.password(),
                      "tasklane.worker.enabled", false)));
      scenarios = orders.getBean(ScenarioService.class);
      awaitProbe(procs);
    } catch (Exception | Error e) {
      close();
      throw e;
    }
  }

  /** The scheduler's base URL. */
  String base() {
    return "http://127.0.0.1:" + port;
  }

  private <T extends AutoCloseable> T track(T resource) {
    open.add(resource);
    return resource;
  }

  /** A coupon grant must come through end to end (relay, scheduler, worker) within 180 s. */
  private void awaitProbe(List<JavaProcess> procs) {
    scenarios.grantCoupon(-1);
    Awaitility.await("the probe task through relay, scheduler and worker")
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              Startup.requireAlive(procs);
              return db.count(
                      "SELECT COUNT(*) FROM demo_effects WHERE kind='coupon.grant' AND ref=-1")
                  > 0;
            });
  }

  @Override
  public void close() {
    for (int i = open.size() - 1; i >= 0; i--) {
      try {
        open.get(i).close();
      } catch (Exception e) {
        System.err.println("console pipeline: closing " + open.get(i) + " failed: " + e);
      }
    }
    open.clear();
  }
}
