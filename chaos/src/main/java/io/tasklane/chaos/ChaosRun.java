package io.tasklane.chaos;

import io.tasklane.chaos.internal.BatchCheck;
import io.tasklane.chaos.internal.Cluster;
import io.tasklane.chaos.internal.Faults;
import io.tasklane.chaos.internal.LaneCheck;
import io.tasklane.chaos.internal.Ledger;
import io.tasklane.chaos.internal.Load;
import io.tasklane.chaos.internal.LostTrail;
import io.tasklane.chaos.internal.Mix;
import io.tasklane.chaos.internal.Probe;
import io.tasklane.chaos.internal.RateCheck;
import io.tasklane.chaos.internal.ReplicatedTopics;
import io.tasklane.chaos.internal.ResultsReader;
import io.tasklane.chaos.internal.ScheduleCheck;
import io.tasklane.chaos.internal.UniqueCheck;
import io.tasklane.chaos.internal.Verifier;
import io.tasklane.core.Topics;
import io.tasklane.examples.orders.DemoSchema;
import io.tasklane.harness.Database;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.RunScope;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.testkit.KafkaCluster;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.LocalStackConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One chaos run: a private stack (never the shared test stack: the broker and MariaDB get
 * restarted), the apps as processes, steady load, the faults, a drain and the verdict. Blocks the
 * calling thread for the whole run; everything it started is stopped before it returns.
 */
public final class ChaosRun {
  /** The topic namespace of a run's apps. */
  public static final String NAMESPACE = "chaos";

  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private final ChaosOptions options;
  private final PrintStream out;
  private final long t0 = System.nanoTime();
  private RunScope scope;

  public ChaosRun(ChaosOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /**
   * Runs the suite; the result says whether it passed. Ctrl-C or the end of the run stops the apps,
   * then the stack.
   */
  public ChaosResult run() throws Exception {
    Path runDir = options.home().resolve("target/chaos/run-" + System.currentTimeMillis());
    try (RunScope started = new RunScope("chaos", out, Duration.ofSeconds(10))) {
      scope = started;
      return run(runDir);
    }
  }

  private ChaosResult run(Path runDir) throws Exception {
    step("starting a private stack in " + runDir);
    try (LocalStack stack =
        LocalStack.start(
            LocalStackConfig.builder()
                .baseDir(runDir.resolve("stack"))
                .deleteOnClose(true)
                .build())) {
      scope.track(stack);
      Database db = Database.create(stack, options.db(), "tasklane_chaos", DemoSchema::create);
      step("outbox and effects on " + options.db().label() + " (" + db.url() + ")");
      KafkaCluster kafka = null;
      if (options.brokers() > 1) {
        step("starting a private " + options.brokers() + "-broker Kafka cluster (topic defaults)");
        kafka = scope.track(KafkaCluster.start(runDir.resolve("kafka"), options.brokers(), "512m"));
      }
      String bootstrap = kafka == null ? stack.bootstrapServers() : kafka.bootstrapServers();
      TasklaneApps apps =
          TasklaneApps.builder()
              .home(options.home())
              .runDir(runDir)
              .database(db.url(), db.user(), db.password())
              .bootstrap(bootstrap)
              .namespace(NAMESPACE)
              .build();
      try (Cluster cluster = new Cluster(apps, FreePorts.next(), FreePorts.next())) {
        scope.track(cluster);
        return withCluster(stack, kafka, bootstrap, db, cluster, apps);
      }
    }
  }

  private ChaosResult withCluster(
      LocalStack stack,
      KafkaCluster kafka,
      String bootstrap,
      Database db,
      Cluster cluster,
      TasklaneApps apps)
      throws Exception {
    step("starting relay, 2 schedulers (standby replicas), 2 workers; logs in " + apps.logs());
    cluster.startAll();
    Ledger ledger = new Ledger();
    Probe probe = new Probe(db, ledger);
    double first = awaitStart(cluster, probe);
    step(String.format("pipeline up (first probe after %.1f s)", first));
    List<String> notes = new ArrayList<>();
    Faults faults = new Faults(options, stack, kafka, cluster, probe, notes, this::step);
    step(String.format("offering %d tasks/s; %d kill cycles", options.rate(), options.cycles()));
    long loadErrors;
    ScheduleCheck.define(db);
    try (Load load = new Load(db, ledger, options.rate(), options.seed())) {
      load.start();
      faults.runAll();
      load.close();
      loadErrors = load.failedBatches();
    }
    ScheduleCheck.delete(db);
    step("load stopped after " + ledger.committedCount() + " committed tasks; draining");
    faults.awaitProbes();
    Verifier verifier = new Verifier(db, ledger);
    long deadline = System.nanoTime() + options.drainTimeout().toNanos();
    Map<String, Integer> effects;
    Set<String> committed;
    long missing;
    for (long done;
        (done = verifier.distinctEffectTasks()) < ledger.committedCount()
            && System.nanoTime() < deadline; ) {
      notes.addAll(cluster.restartDead());
      step("drain: " + (ledger.committedCount() - done) + " committed tasks without effect");
      TimeUnit.SECONDS.sleep(5);
    }
    do {
      notes.addAll(cluster.restartDead());
      effects = verifier.effects();
      committed = verifier.committed(effects);
      missing = verifier.missing(committed, effects);
      step("drain: " + missing + " of " + committed.size() + " committed tasks without effect");
      if (missing > 0) {
        TimeUnit.SECONDS.sleep(5);
      }
    } while (missing > 0 && System.nanoTime() < deadline);
    if (missing > 0) {
      List<String> sample = verifier.missingSample(committed, effects);
      notes.add("drain timed out; e.g. " + sample);
      String changelog = NAMESPACE + "-scheduler-tasklane-tasks-changelog";
      try {
        for (String trail : LostTrail.of(bootstrap, new Topics(NAMESPACE), changelog, db, sample)) {
          notes.add(trail);
          step(trail);
        }
      } catch (RuntimeException e) {
        step("the trails of the missing tasks could not be read: " + e);
      }
    }
    if (loadErrors > 0) {
      notes.add(loadErrors + " load batches failed (ambiguous commits checked in the outbox)");
    }
    ScheduleCheck.Fires fires =
        drainFires(bootstrap, db, cluster, deadline, notes, faults.scheduleWindows());
    LaneCheck.Result lanes = LaneCheck.verify(db, ledger, committed, cluster.deaths());
    step(
        String.format(
            "ordered lanes: %d ordered tasks, %d runs (%d cut, %d open), %d order violations,"
                + " %d overlaps",
            lanes.orderedTasks(),
            lanes.runs(),
            lanes.cutRuns(),
            lanes.openRuns(),
            lanes.orderViolations(),
            lanes.overlaps()));
    lanes.evidence().forEach(e -> notes.add(e));
    UniqueCheck.Result unique = UniqueCheck.verify(db, ledger, committed);
    step(
        String.format(
            "unique keys: %d tasks on %d keys, %d keys freed and taken again, %d overlaps",
            unique.tasks(), unique.keys(), unique.keysReused(), unique.overlaps()));
    unique.evidence().forEach(e -> notes.add(e));
    RateCheck.Result rate = RateCheck.verify(db, ledger, committed);
    step(
        String.format(
            "rate limit: %d tasks, %d started, at most %d in a second (bound %d), %d over it",
            rate.tasks(),
            rate.started(),
            rate.mostInASecond(),
            Mix.LIMIT_RATE + Mix.LIMIT_BURST,
            rate.overLimit()));
    rate.evidence().forEach(e -> notes.add(e));
    BatchCheck.Result batches = BatchCheck.verify(db, ledger, committed);
    step(
        String.format(
            "batches: %d committed, %d callbacks ran, %d missing, %d twice, %d wrong counts, %d"
                + " before their members",
            batches.batches(),
            batches.callbacks(),
            batches.missing(),
            batches.twice(),
            batches.wrongCounts(),
            batches.early()));
    batches.evidence().forEach(e -> notes.add(e));
    long retaken = UniqueCheck.retakeAfterDrain(db, ledger, Duration.ofSeconds(30));
    step(
        String.format(
            "unique keys after the drain: %d of %d taken again by a new task",
            retaken, unique.keys()));
    long deliveries = ResultsReader.duplicateDeliveries(bootstrap, new Topics(NAMESPACE).results());
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("db", options.db().flag());
    extra.put("rate", options.rate());
    extra.put("effects_rows", effects.values().stream().mapToLong(Integer::longValue).sum());
    extra.put("unexpected_exits", cluster.unexpectedExits());
    extra.putAll(fires.asMap());
    extra.putAll(lanes.asMap());
    extra.putAll(unique.asMap());
    extra.put("unique_keys_retaken_after_drain", retaken);
    extra.putAll(rate.asMap());
    extra.putAll(batches.asMap());
    extra.put("brokers", options.brokers());
    if (kafka != null) {
      List<String> unsafe = ReplicatedTopics.unsafe(kafka, NAMESPACE);
      extra.put("topics_not_rf3_min_isr2", unsafe.size());
      if (!unsafe.isEmpty()) {
        notes.add("topics not at 3 replicas and min ISR 2: " + unsafe);
      }
    }
    extra.put("elapsed_s", Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
    return new ChaosResult(
        faults.kills(),
        committed.size(),
        missing,
        Verifier.duplicates(effects),
        deliveries,
        fires.lost(),
        fires.duplicates(),
        fires.early(),
        fires.skippedOutsideFaults(),
        lanes.orderedTasks(),
        lanes.orderViolations(),
        lanes.overlaps(),
        faults.maxRecoveryS(),
        faults.lines(),
        notes,
        extra);
  }

  /** The schedule's fires, once every fire made has its effect or the drain deadline passed. */
  private ScheduleCheck.Fires drainFires(
      String bootstrap,
      Database db,
      Cluster cluster,
      long deadline,
      List<String> notes,
      List<Faults.Window> windows)
      throws InterruptedException {
    String tasks = new Topics(NAMESPACE).tasks();
    String store = NAMESPACE + "-scheduler-tasklane-tasks-changelog";
    ScheduleCheck.Fires fires = ScheduleCheck.verify(bootstrap, tasks, store, db, windows);
    while (fires.lost() > 0 && System.nanoTime() < deadline) {
      notes.addAll(cluster.restartDead());
      step("drain: " + fires.lost() + " of " + fires.made() + " schedule fires without effect");
      TimeUnit.SECONDS.sleep(5);
      fires = ScheduleCheck.verify(bootstrap, tasks, store, db, windows);
    }
    step(
        String.format(
            "schedule %s: %d fires made, %d lost, %d duplicate, %d early, %d skipped by the"
                + " misfire policy (%d of them outside a scheduler or broker fault)",
            ScheduleCheck.NAME,
            fires.made(),
            fires.lost(),
            fires.duplicates(),
            fires.early(),
            fires.skipped(),
            fires.skippedOutsideFaults()));
    if (!fires.outsideDetail().isEmpty()) {
      notes.add(fires.outsideDetail());
      step(fires.outsideDetail());
    }
    return fires;
  }

  private double awaitStart(Cluster cluster, Probe probe) throws InterruptedException {
    long since = System.nanoTime();
    double s = probe.await(since, START_TIMEOUT);
    String dead = cluster.deadOne();
    if (s < 0 || dead != null) {
      throw new ChaosException(
          "the pipeline did not come up in " + START_TIMEOUT + (dead == null ? "" : "; " + dead));
    }
    return s;
  }

  private void step(String text) {
    out.printf("[%6.1fs] %s%n", (System.nanoTime() - t0) / 1e9, text);
    out.flush();
  }
}
