package io.tasklane.bench.internal;

import io.tasklane.core.TopicReplication;
import io.tasklane.core.Topics;
import io.tasklane.harness.Database;
import io.tasklane.harness.DatabaseKind;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.RunScope;
import io.tasklane.harness.Startup;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.outbox.OutboxSchema;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.LocalStackConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * One benchmark run: a private stack, the relay, a scheduler and the no-op worker as processes,
 * then the chosen scenarios ({@link Scenarios}) in order. Everything it starts is stopped by {@link
 * #close()}, which a JVM shutdown hook also calls on Ctrl-C. Runs on the caller's thread.
 */
public final class BenchRun implements AutoCloseable {
  static final String NAMESPACE = "bench";
  final BenchOptions options;
  final PrintStream out;
  final Results results = new Results();
  final long t0 = System.currentTimeMillis();
  private final RunScope scope;
  private final LocalStack givenStack;
  LocalStack stack;
  TasklaneApps apps;
  private Path runDir;
  Tap tap;
  String url;
  Database db;
  JavaProcess relay;
  JavaProcess scheduler;
  JavaProcess worker;
  int schedulerPort;

  /** The scheduler's Kafka Streams application id (its changelogs' prefix). */
  String applicationId;

  /**
   * @param givenStack a running stack to use (tests pass the shared one), or null for a private one
   */
  public BenchRun(BenchOptions options, PrintStream out, LocalStack givenStack) {
    this.options = options;
    this.out = out;
    this.givenStack = givenStack;
    this.scope = new RunScope("bench", out, Duration.ofSeconds(15));
  }

  /** This run's directory ({@code target/bench/run-<t0>}): its stack, logs and per-task files. */
  Path runDir() {
    return runDir;
  }

  /** Runs the scenarios; returns the results (also written by {@link Report}). */
  public Results execute() throws Exception {
    Path runDir = options.home().resolve("target/bench/run-" + t0);
    step(
        "starting a private stack: MariaDB (innodb-flush-log-at-trx-commit=1, sync-binlog=1) + KRaft Kafka"
            + (options.brokers() > 1
                ? " (" + options.brokers() + " broker+controller nodes" + brokerSettingsText() + ")"
                : "")
            + (options.db() == DatabaseKind.POSTGRESQL
                ? "; the outbox on the stack's private PostgreSQL (fsync=off, synchronous_commit=off, wal_writer_delay=1ms)"
                : ""));
    stack =
        givenStack != null
            ? givenStack
            : track(
                LocalStack.start(
                    options.brokers() > 1
                        ? LocalStackConfig.builder()
                            .baseDir(runDir.resolve("stack"))
                            .deleteOnClose(true)
                            .durability(1, 1)
                            .kafkaFastStart(false)
                            .kafkaHeap("512m")
                            .brokers(options.brokers())
                            .kafkaSettings(options.brokerSettings())
                            .startTimeout(Duration.ofMinutes(4))
                            .build()
                        : LocalStackConfig.builder()
                            .baseDir(runDir.resolve("stack"))
                            .deleteOnClose(true)
                            .durability(1, 1)
                            .kafkaFastStart(false)
                            .kafkaHeap("768m")
                            .build()));
    String name = givenStack != null ? "bench_" + Long.toString(t0, 36) : "tasklane_bench";
    db = Database.create(stack, options.db(), name, OutboxSchema::create);
    url = db.url();
    // closed after the relay (reverse order): a PostgreSQL slot left behind holds WAL
    track(() -> db.dropReplicationSlots(Duration.ofSeconds(10)));
    String ns = givenStack != null ? NAMESPACE + Long.toString(t0, 36) : NAMESPACE;
    Topics topics = new Topics(ns);
    createTopics(topics);
    this.runDir = runDir;
    apps = appsIn(ns);
    applicationId = ns + "-scheduler";
    results.machine(db);
    step(
        "starting relay, scheduler and worker as separate processes (logs in " + apps.logs() + ")");
    schedulerPort = FreePorts.next();
    StartupReady ready = track(new StartupReady());
    long execAt = System.nanoTime();
    relay = track(clients(Recipes.relay(apps, "relay"), "relay").start());
    ready.watch("relay", relay, execAt, StartupReady.relay());
    execAt = System.nanoTime();
    scheduler =
        track(
            clients(
                    appSessions(Recipes.scheduler(apps, "scheduler-1", schedulerPort), "scheduler"),
                    "scheduler")
                .start());
    ready.watch("scheduler", scheduler, execAt, StartupReady.scheduler());
    execAt = System.nanoTime();
    worker =
        track(clients(appSessions(Recipes.worker(apps, "worker"), "worker"), "worker").start());
    ready.watch("worker", worker, execAt, StartupReady.worker());
    tap = track(new Tap(stack.bootstrapServers(), topics));
    step("waiting for the pipeline: a probe task must come through end to end");
    awaitProbe();
    ready.report(3, results, out);
    Scenarios scenarios = new Scenarios(this, topics);
    if (options.warmupTasks() > 0) {
      step("warming up the JVMs: " + options.warmupTasks() + " tasks end to end");
      scenarios.warmUp();
    }
    for (String s : options.scenarios()) {
      step("scenario " + s);
      long start = System.currentTimeMillis();
      scenarios.run(s);
      results.put(s + "_scenario_s", (System.currentTimeMillis() - start) / 1000.0);
    }
    results.put("total_s", (System.currentTimeMillis() - t0) / 1000.0);
    return results;
  }

  /**
   * The processes a task's CPU cost is split over ({@link CpuTimes}), by component: the database
   * server, the broker, the three apps and this JVM (the driver: enqueuers and the result tap).
   */
  Map<String, Long> cpuPids() {
    Map<String, Long> pids = new LinkedHashMap<>();
    if (db.kind() == DatabaseKind.POSTGRESQL) {
      pids.put("postgresql", stack.postgres().pid());
    } else {
      pids.put("mariadb", stack.mariaDbPid());
    }
    pids.put("broker", stack.kafkaPid());
    pids.put("relay", relay.pid());
    pids.put("scheduler", scheduler.pid());
    pids.put("worker", worker.pid());
    pids.put("driver", ProcessHandle.current().pid());
    return pids;
  }

  /** The JVMs of the three apps by name: relay, scheduler and worker. */
  Map<String, Long> appPids() {
    Map<String, Long> pids = new LinkedHashMap<>();
    pids.put("relay", relay.pid());
    pids.put("scheduler", scheduler.pid());
    pids.put("worker", worker.pid());
    return pids;
  }

  /** The JVMs of the run's Kafka brokers: one, or each node of a cluster. */
  List<Long> brokerPids() {
    return stack
        .kafkaCluster()
        .map(c -> c.ids().stream().map(c::pid).toList())
        .orElse(List.of(stack.kafkaPid()));
  }

  private void awaitProbe() throws Exception {
    Enqueuer e = new Enqueuer(url, db.user(), db.password());
    long deadline = System.currentTimeMillis() + 180_000;
    long next = 0;
    while (tap.succeeded() == 0) {
      Startup.requireAlive(List.of(relay, scheduler, worker));
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("no probe task came through in 180 s; see " + apps.logs());
      }
      if (System.currentTimeMillis() > next) { // one probe every 10 s: topics may appear late
        e.run(1, 1, 1, null, false);
        next = System.currentTimeMillis() + 10_000;
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
  }

  /** Launch recipes of apps in {@code namespace}, on this run's stack and database. */
  TasklaneApps appsIn(String namespace) {
    return TasklaneApps.builder()
        .home(options.home())
        .runDir(runDir)
        .database(db.url(), db.user(), db.password())
        .bootstrap(stack.bootstrapServers())
        .namespace(namespace)
        .jfr(options.jfr())
        .schedulerSettings(options.schedulerSettings())
        .build();
  }

  /**
   * {@code app} (relay, scheduler or worker) with the run's {@link
   * BenchOptions#kafkaClientSettings()} as {@code tasklane.<app>.kafka.<key>}.
   */
  JavaProcess.Builder clients(JavaProcess.Builder b, String app) {
    new java.util.TreeMap<>(options.kafkaClientSettings())
        .forEach((k, v) -> b.sysProp("tasklane." + app + ".kafka." + k, v));
    return b;
  }

  /**
   * On a 3-broker run: the scheduler's and the worker's own default group session (6 s) instead of
   * the bench's {@link Recipes#SESSION_TIMEOUT_MS}, which is for the instance kills of the
   * one-broker failover: a session shorter than a broker's fencing ({@code
   * broker.session.timeout.ms}) expires while the group coordinator moves and adds a rebalance to
   * every broker loss (measured: docs/operations.md, "Broker loss").
   */
  private JavaProcess.Builder appSessions(JavaProcess.Builder b, String app) {
    if (options.brokers() > 1 && app.equals("scheduler")) {
      b.sysProp("tasklane.scheduler.kafka.session.timeout.ms", APP_SESSION_TIMEOUT_MS);
    } else if (options.brokers() > 1) {
      b.sysProp(
          "tasklane.worker.session-timeout",
          io.tasklane.worker.WorkerConfig.DEFAULT_SESSION_TIMEOUT.toMillis() + "ms");
    }
    return b;
  }

  /** The scheduler's default group session timeout (its StreamsProps.SESSION_TIMEOUT_MS). */
  private static final String APP_SESSION_TIMEOUT_MS = "6000";

  private String brokerSettingsText() {
    return options.brokerSettings().isEmpty()
        ? ", Kafka's default broker settings"
        : ", " + new java.util.TreeMap<>(options.brokerSettings());
  }

  /**
   * Creates {@code topics}' four co-partitioned topics (6 partitions) unless they exist; on a
   * cluster replicated as the apps replicate theirs by default ({@link TopicReplication#DEFAULT}:
   * RF 3, min ISR 2 on 3 brokers).
   */
  void createTopics(Topics topics) throws InterruptedException, ExecutionException {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
    try (Admin admin = Admin.create(p)) {
      // All four co-partitioned topics: the scheduler checks their partition counts at start.
      for (String t : List.of(topics.tasks(), topics.results(), topics.control(), topics.logs())) {
        try {
          NewTopic topic = new NewTopic(t, 6, (short) 1);
          if (options.brokers() > 1) {
            TopicReplication.Resolved r = TopicReplication.DEFAULT.resolve(options.brokers());
            topic =
                new NewTopic(t, 6, r.factor())
                    .configs(
                        Map.of("min.insync.replicas", Integer.toString(r.minInsyncReplicas())));
          }
          admin.createTopics(List.of(topic)).all().get();
        } catch (ExecutionException ex) {
          if (!(ex.getCause() instanceof TopicExistsException)) {
            throw ex;
          }
        }
      }
    }
  }

  /**
   * Prints a progress line every second until {@code done} or {@code timeout}; false on timeout.
   */
  boolean progress(String label, Supplier<String> line, BooleanSupplier done, Duration timeout)
      throws InterruptedException {
    long end = System.currentTimeMillis() + timeout.toMillis();
    long nextPrint = 0;
    while (!done.getAsBoolean()) {
      if (System.currentTimeMillis() > end) {
        out.printf("%n  %s: timed out after %d s%n", label, timeout.toSeconds());
        return false;
      }
      if (System.currentTimeMillis() >= nextPrint) {
        out.printf(
            "\r  [%5.1fs] %s: %s        ",
            (System.currentTimeMillis() - t0) / 1000.0, label, line.get());
        out.flush();
        nextPrint = System.currentTimeMillis() + 1000;
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
    out.printf(
        "\r  [%5.1fs] %s: %s        %n",
        (System.currentTimeMillis() - t0) / 1000.0, label, line.get());
    return true;
  }

  void step(String text) {
    out.printf("[%5.1fs] %s%n", (System.currentTimeMillis() - t0) / 1000.0, text);
  }

  <T extends AutoCloseable> T track(T resource) {
    return scope.track(resource);
  }

  @Override
  public void close() {
    scope.close();
  }

  Map<String, Object> map() {
    return results.map();
  }
}
