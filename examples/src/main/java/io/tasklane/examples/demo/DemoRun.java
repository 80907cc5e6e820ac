package io.tasklane.examples.demo;

import io.micronaut.context.ApplicationContext;
import io.tasklane.core.TaskIds;
import io.tasklane.core.Topics;
import io.tasklane.examples.launch.ExampleWorker;
import io.tasklane.examples.orders.DemoSchema;
import io.tasklane.examples.orders.LateHandlers;
import io.tasklane.examples.orders.OrderService;
import io.tasklane.examples.orders.ScenarioHandlers;
import io.tasklane.examples.orders.ScenarioService;
import io.tasklane.examples.orders.ScheduleService;
import io.tasklane.harness.Database;
import io.tasklane.harness.DatabaseKind;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.RunScope;
import io.tasklane.harness.Startup;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.harness.Verdict;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.LocalStackConfig;
import io.tasklane.testkit.Secrets;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * One demo run: stack, apps, workload, progress, verdict. Everything it starts is stopped by {@link
 * #close()}, which a JVM shutdown hook also calls on Ctrl-C. Runs on the caller's thread.
 */
final class DemoRun implements AutoCloseable {
  private static final String NAMESPACE = "demo";
  private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
  private final DemoOptions options;
  private final PrintStream out;
  private final RunScope scope;
  private final long t0 = System.currentTimeMillis();
  private long lastEffects;
  private long lastAt = t0;

  private static final String SCHEDULER_PASS_THROUGH = "tasklane.demo.scheduler.";
  private final LocalStack givenStack;

  /**
   * The scheduler's viewer token of this run (the operator token is {@link TasklaneApps#TOKEN}).
   */
  private final String viewerToken = Secrets.token();

  private String namespace = NAMESPACE;
  private Database db;

  /**
   * @param givenStack a running stack to use (tests pass the shared one), or null to attach to
   *     {@code TASKLANE_STACK} or start a private one
   */
  DemoRun(DemoOptions options, PrintStream out, LocalStack givenStack) {
    this.options = options;
    this.out = out;
    this.givenStack = givenStack;
    this.scope = new RunScope("demo", out, Duration.ofSeconds(10));
  }

  boolean execute() throws Exception {
    if (options.keep()) {
      KeptDemo.requireNone(options.home());
    }
    step("starting the local stack (" + stackText() + ")");
    LocalStack stack = startStack();
    // on a stack shared with other runs (tests, TASKLANE_STACK): this run's own topics and database
    String run = givenStack != null || stack.isAttached() ? Long.toString(t0, 36) : "";
    namespace = NAMESPACE + run;
    Database db =
        Database.create(
            stack,
            options.db(),
            "tasklane_demo" + (run.isEmpty() ? "" : "_" + run),
            DemoSchema::create);
    this.db = db;
    // after the relay stopped (closed in reverse order): a PostgreSQL slot left behind holds WAL
    AutoCloseable dropSlots = track(() -> db.dropReplicationSlots(Duration.ofSeconds(10)));
    int httpPort = FreePorts.next();
    Path runDir = options.home().resolve("target/demo/run-" + t0);
    AutoCloseable dropState = track(() -> KeptDemo.deleteTree(runDir.resolve("state-scheduler")));
    TasklaneApps apps =
        TasklaneApps.builder()
            .home(options.home())
            .runDir(runDir)
            .database(db.url(), db.user(), db.password())
            .bootstrap(stack.bootstrapServers())
            .namespace(namespace)
            // -Dtasklane.demo.jfr=true: relay, scheduler and workers record JFR into the run dir
            .jfr(Boolean.getBoolean("tasklane.demo.jfr"))
            // C1 alone: five cold JVMs' C2 compilers on one machine held the first seconds
            // (docs/performance.md); -Dtasklane.demo.tiered=true keeps the full tiered JIT
            .jvmArgs(Boolean.getBoolean("tasklane.demo.tiered") ? List.of() : List.of(C1_ONLY))
            .build();
    step(
        "starting relay, scheduler and worker as separate processes (logs in " + apps.logs() + ")");
    boolean keep = options.keep();
    JavaProcess relay = track(apps.relay("relay").detached(keep).start());
    JavaProcess.Builder schedulerRecipe =
        apps.scheduler("scheduler", httpPort)
            .sysProp(
                "tasklane.scheduler.api.tokens",
                "viewer:" + viewerToken + ":viewer,operator:" + TasklaneApps.TOKEN + ":operator");
    // -Dtasklane.demo.scheduler.<key>=<value>: tasklane.scheduler.<key> (tuning experiments)
    System.getProperties().stringPropertyNames().stream()
        .filter(k -> k.startsWith(SCHEDULER_PASS_THROUGH))
        .forEach(
            k ->
                schedulerRecipe.sysProp(
                    "tasklane.scheduler." + k.substring(SCHEDULER_PASS_THROUGH.length()),
                    System.getProperty(k)));
    JavaProcess scheduler = track(schedulerRecipe.detached(keep).start());
    JavaProcess worker = track(ExampleWorker.recipe(apps, "worker", false).detached(keep).start());
    ApplicationContext orders = track(ordersContext(db));
    OrderService orderService = orders.getBean(OrderService.class);
    ScenarioService scenarios = orders.getBean(ScenarioService.class);

    step("waiting for the pipeline: a probe task must come through end to end");
    awaitProbe(db, scenarios, List.of(relay, scheduler, worker));

    step(
        String.format(
            "running %d orders at %d/s, unpaid orders cancelled after %s",
            options.orders(), options.rate(), options.unpaidTimeout()));
    ScheduleService schedules = orders.getBean(ScheduleService.class);
    schedules.start();
    ScheduleVerifier scheduleVerifier =
        new ScheduleVerifier(
            db,
            System.currentTimeMillis(),
            ScheduleVerifier.tasksPartitions(stack.bootstrapServers(), namespace));
    Workload load =
        track(
            new Workload(
                options,
                orderService,
                scenarios,
                id ->
                    TaskIds.isValid(id)
                        && db.count("SELECT COUNT(*) FROM demo_effects WHERE task_id='" + id + "'")
                            > 0));
    load.start();
    Verifier verifier = new Verifier(db);
    int cases = expectedCases();
    Duration offering = Duration.ofSeconds(60 + options.orders() / options.rate());
    progressUntil(db, load::allOffered, offering);
    out.println();
    StreamsFigures.print(out, httpPort, TasklaneApps.TOKEN);
    progressUntil(db, scheduleVerifier::ranLongEnough, Duration.ofSeconds(60));
    schedules.stopCalendars();
    scheduleVerifier.awaitDeleted(httpPort, TasklaneApps.TOKEN, Duration.ofSeconds(60));
    out.println();
    step(
        "deploying a worker with the late handler "
            + LateHandlers.AUDIT
            + " (its tasks waited as NO_HANDLER)");
    JavaProcess late =
        track(ExampleWorker.recipe(apps, "worker-late", true).detached(keep).start());
    load.awaitOffered(Duration.ofSeconds(5));
    progressUntil(
        db,
        () ->
            verifier.settled(options, cases)
                && scheduleVerifier.settled()
                && deadCount(stack, load) == load.brokenIds().size(),
        options.settleTimeout());
    schedules.stopChild();
    out.println();

    Verdict verdict = verifier.verify(options, cases, deadCount(stack, load), load.brokenIds());
    scheduleVerifier.verify(verdict);
    verdict.check(
        "the workload itself raised no errors",
        load.errors().isEmpty(),
        load.errors().size()
            + " errors"
            + (load.errors().isEmpty() ? "" : ": " + load.errors().get(0)));
    printSummary(verdict, verifier, scheduleVerifier, httpPort, load);
    new HopTimes(db, new Topics(namespace), stack.bootstrapServers())
        .print(out, runDir.resolve("hops.csv"));
    if (keep) {
      scope.release(stack, relay, scheduler, worker, late, dropSlots, dropState);
      boolean own = givenStack == null && !stack.isAttached();
      KeptDemo.write(
          options.home(),
          new KeptDemo.Kept(
              "http://127.0.0.1:" + httpPort,
              httpPort,
              namespace,
              stack.bootstrapServers(),
              runDir,
              own ? stack.baseDir() : null,
              List.of(relay, scheduler, worker, late),
              load.brokenIds().isEmpty() ? "<id>" : load.brokenIds().get(0)),
          viewerToken,
          TasklaneApps.TOKEN,
          out);
    }
    return verdict.ok();
  }

  /** The run's database (null before {@link #execute} created it). */
  Database database() {
    return db;
  }

  private int expectedCases() {
    int every = Math.max(1, options.orders() / options.cases());
    return (options.orders() + every - 1) / every;
  }

  private LocalStack startStack() {
    if (givenStack != null) {
      return givenStack;
    }
    String attach = System.getenv("TASKLANE_STACK");
    LocalStack stack =
        attach != null
            ? LocalStack.attach(Path.of(attach))
            : LocalStack.start(
                LocalStackConfig.builder()
                    .baseDir(options.home().resolve("target/demo/stack-" + t0))
                    .detached(options.keep()) // --keep: the servers outlive this JVM
                    .deleteOnClose(true)
                    .build());
    return track(stack);
  }

  private String stackText() {
    return options.db() == DatabaseKind.POSTGRESQL
        ? "KRaft Kafka + private PostgreSQL with wal_level=logical; the stack's MariaDB idles"
        : "private MariaDB with ROW binlog + KRaft Kafka";
  }

  private ApplicationContext ordersContext(Database db) {
    return ApplicationContext.run(
        Map.of(
            "datasources.default.url",
            db.url(),
            "datasources.default.username",
            db.user(),
            "datasources.default.password",
            db.password(),
            "tasklane.worker.enabled",
            false));
  }

  private void awaitProbe(Database db, ScenarioService scenarios, List<JavaProcess> procs)
      throws InterruptedException {
    scenarios.grantCoupon(-1);
    long deadline = System.currentTimeMillis() + 180_000;
    while (db.count("SELECT COUNT(*) FROM demo_effects WHERE kind='coupon.grant' AND ref=-1")
        == 0) {
      Startup.requireAlive(procs);
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(
            "the probe task did not come through in 180 s; see "
                + procs.get(0).logFile().getParent());
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    db.count("SELECT 1");
    db.execute("DELETE FROM demo_effects WHERE ref=-1");
  }

  private long deadCount(LocalStack stack, Workload load) {
    return DltCounter.count(
        stack.bootstrapServers(),
        new Topics(namespace).handlerDlt(ScenarioHandlers.BROKEN),
        load.brokenIds());
  }

  private void progressUntil(Database db, java.util.function.BooleanSupplier done, Duration timeout)
      throws InterruptedException {
    long start = System.currentTimeMillis();
    while (System.currentTimeMillis() - start < timeout.toMillis()) {
      Counts c = Counts.read(db);
      long now = System.currentTimeMillis();
      long rate = (c.effects() - lastEffects) * 1000 / Math.max(1, now - lastAt);
      lastEffects = c.effects();
      lastAt = now;
      out.print(c.line(now - t0, options.orders(), rate));
      out.flush();
      if (done.getAsBoolean()) {
        return;
      }
      TimeUnit.MILLISECONDS.sleep(1000);
    }
  }

  private void printSummary(
      Verdict verdict,
      Verifier verifier,
      ScheduleVerifier scheduleVerifier,
      int httpPort,
      Workload load) {
    Histogram lateness = verifier.cancelLateness();
    out.println();
    out.println("== Tasklane demo summary ==");
    out.printf(
        "  database: %s (relay connector=%s)%n",
        options.db().label(), DatabaseKind.relayConnector(db.url()));
    verdict.lines().forEach(out::println);
    verifier.emailLatency().print(out);
    out.printf(
        "  lateness of delayed cancellations: p50 %d ms, p99 %d ms, max %d ms (%d tasks)%n",
        lateness.getValueAtPercentile(50),
        lateness.getValueAtPercentile(99),
        lateness.getMaxValue(),
        lateness.getTotalCount());
    scheduleVerifier.summary(out);
    out.printf(
        "  dead tasks: %d on %s%n",
        load.brokenIds().size(), new Topics(namespace).handlerDlt(ScenarioHandlers.BROKEN));
    out.printf(
        "  status API: http://127.0.0.1:%d/api/tasks/<id>  (Authorization: Bearer %s)%n",
        httpPort, TasklaneApps.TOKEN);
    out.printf(
        "  e.g. curl -H 'Authorization: Bearer %s' http://127.0.0.1:%d/api/tasks/%s%n",
        TasklaneApps.TOKEN,
        httpPort,
        load.brokenIds().isEmpty() ? "<id>" : load.brokenIds().get(0));
    out.println(verdict.ok() ? "RESULT: PASS — every invariant holds" : "RESULT: FAIL");
    out.printf(
        "  (%.1f s in all; %s)%n",
        (System.currentTimeMillis() - t0) / 1000.0,
        options.keep() ? "the stack and the apps keep running" : "the apps stop now");
  }

  private void step(String text) {
    out.printf("[%5.1fs] %s%n", (System.currentTimeMillis() - t0) / 1000.0, text);
  }

  private <T extends AutoCloseable> T track(T resource) {
    return scope.track(resource);
  }

  @Override
  public void close() {
    scope.close();
  }
}
