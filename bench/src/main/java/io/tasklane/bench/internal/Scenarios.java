package io.tasklane.bench.internal;

import io.tasklane.core.Topics;
import io.tasklane.harness.Database;
import io.tasklane.harness.DatabaseKind;
import io.tasklane.outbox.OutboxSchema;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The Tasklane scenarios of one {@link BenchRun}; db-scheduler's side is in {@link PeerScenarios}.
 */
final class Scenarios {
  /** Tasks per outbox row in the batched-rows relay measure. */
  static final int BATCH_ROWS = 100;

  private final BenchRun run;
  private final BenchOptions o;
  private final Results r;
  private final Topics topics;
  private final Enqueuer enqueuer;
  private final PeerScenarios peer;

  Scenarios(BenchRun run, Topics topics) {
    this.run = run;
    this.o = run.options;
    this.r = run.results;
    this.topics = topics;
    this.enqueuer = new Enqueuer(run.url, run.db.user(), run.db.password());
    this.peer = new PeerScenarios(run);
  }

  void run(String scenario) throws Exception {
    switch (scenario) {
      case "throughput" -> throughput();
      case "peer" -> peer.throughput();
      case "latency" -> new LatencyScenario(run, topics, enqueuer).run();
      case "scale" -> scale();
      case "delay" -> {
        delay();
        peer.delay();
      }
      case "failover" -> {
        if (o.brokers() > 1) {
          new BrokerFailover(run, enqueuer, topics).run();
        } else {
          new Failover(run, enqueuer).run();
        }
      }
      case "schedules" -> new ScheduleLoad(run, topics).run();
      case "scaleout" -> new ScaleOut(run).run();
      case "api" -> new ApiScenario(run, topics).run();
      case "lanes" -> new LanesScenario(run, topics).run();
      case "priorities" -> new PrioritiesScenario(run, topics).run();
      case "ratelimit" -> new RateLimitScenario(run, topics).run();
      case "batches" -> new BatchScenario(run, topics).run();
      default -> throw new IllegalArgumentException(scenario);
    }
  }

  /**
   * Runs {@code warmupTasks} end to end before the first scenario, so that no scenario times the
   * JIT compiling the hot paths of the apps, the broker or this driver; recorded as {@code
   * warmup_*}, apart from every scenario.
   */
  void warmUp() throws Exception {
    int n = o.warmupTasks();
    if (n <= 0) {
      return;
    }
    long base = run.tap.succeeded();
    Enqueuer e = new Enqueuer(run.url, run.db.user(), run.db.password());
    long start = System.currentTimeMillis();
    Thread load = background(() -> e.run(n, 100, 4, null, false));
    boolean done =
        run.progress(
            "warm-up (not timed by any scenario)",
            () -> String.format("succeeded %d of %d", run.tap.succeeded() - base, n),
            () -> run.tap.succeeded() - base >= n,
            Duration.ofSeconds(Math.max(120, n / 100)));
    load.join();
    long ms = Math.max(1, (done ? run.tap.lastResultTs() : System.currentTimeMillis()) - start);
    r.put(o.key("warmup_tasks"), n);
    r.put(o.key("warmup_s"), ms / 1000.0);
    r.put(o.key("warmup_tasks_per_s"), (run.tap.succeeded() - base) * 1000.0 / ms);
  }

  private void throughput() throws Exception {
    int n = o.tasks();
    Database ceilingDb =
        Database.create(
            run.stack,
            run.db.kind(),
            run.url.substring(run.url.lastIndexOf('/') + 1).replaceAll("\\?.*", "") + "_ceiling",
            OutboxSchema::create);
    String ceilingUrl = ceilingDb.url();
    Enqueuer ceiling = new Enqueuer(ceilingUrl, ceilingDb.user(), ceilingDb.password());
    long s0 = System.currentTimeMillis();
    Thread t = background(() -> ceiling.run(n, 100, 4, null, false));
    run.progress(
        "insert ceiling (no relay on this database)",
        () -> ceiling.enqueued() + "/" + n + " rows",
        () -> !t.isAlive(),
        Duration.ofMinutes(10));
    double ceilingRate = n * 1000.0 / Math.max(1, System.currentTimeMillis() - s0);
    r.put(o.key("insert_ceiling_rows_per_s"), ceilingRate);
    try (Connection c = ceilingDb.connect();
        Statement s = c.createStatement()) {
      s.execute("TRUNCATE TABLE " + OutboxSchema.TABLE);
    }

    long base = run.tap.succeeded();
    long tasksBase = run.tap.tasksSeen();
    Enqueuer e = new Enqueuer(run.url, run.db.user(), run.db.password());
    Map<String, Long> pids = run.cpuPids();
    Map<String, Long> cpuBefore = CpuTimes.sample(pids);
    Map<String, Long> schedulerThreadsBefore =
        ThreadCpu.sample(run.scheduler.pid(), run.applicationId);
    long queuedBefore = Probes.schedulerEvents(run.schedulerPort, "queued");
    RecordCost records = RecordCost.start(run);
    Map<String, Long> clientsBefore = ClientRequests.sample(run.appPids());
    long start = System.currentTimeMillis();
    AtomicLong enqueueEnd = new AtomicLong();
    Thread load =
        background(
            () -> {
              e.run(n, 100, 4, null, false);
              enqueueEnd.set(System.currentTimeMillis());
            });
    boolean done =
        run.progress(
            "end to end",
            () ->
                String.format(
                    "committed %d, relayed %d, succeeded %d of %d",
                    e.enqueued(), run.tap.tasksSeen() - tasksBase, run.tap.succeeded() - base, n),
            () -> run.tap.succeeded() - base >= n,
            Duration.ofSeconds(Math.max(120, n / 200)));
    load.join();
    cpuPerTask(CpuTimes.perTask(cpuBefore, CpuTimes.sample(pids), run.tap.succeeded() - base));
    Map<String, Double> threads =
        ThreadCpu.perTask(
            schedulerThreadsBefore,
            ThreadCpu.sample(run.scheduler.pid(), run.applicationId),
            run.tap.succeeded() - base);
    threads.forEach((kind, us) -> r.put(o.key("cpu_us_per_task_scheduler_" + kind), us));
    run.out.printf("  scheduler CPU per task by thread: %s µs%n", threads);
    ClientRequests.record(
        run, clientsBefore, ClientRequests.sample(run.appPids()), run.tap.succeeded() - base);
    try (records) {
      records.finish(
          run.tap.succeeded() - base,
          o.db() == DatabaseKind.POSTGRESQL ? "Tasklane on PostgreSQL" : "Tasklane");
    }
    long queuedAfter = Probes.schedulerEvents(run.schedulerPort, "queued");
    if (queuedBefore >= 0 && queuedAfter >= 0) {
      r.put(o.key("throughput_queued_share"), (queuedAfter - queuedBefore) / (double) n);
    }
    long end = done ? run.tap.lastResultTs() : System.currentTimeMillis();
    r.put(o.key("throughput_tasks"), n);
    r.put(
        o.key("throughput_tasks_per_s"),
        (run.tap.succeeded() - base) * 1000.0 / Math.max(1, end - start));
    r.put(
        o.key("enqueue_rows_per_s_with_relay"), n * 1000.0 / Math.max(1, enqueueEnd.get() - start));
    r.put(
        o.key("relay_rows_per_s_end_to_end"),
        (run.tap.tasksSeen() - tasksBase) * 1000.0 / Math.max(1, run.tap.lastTaskTs() - start));
    r.throughput.put(
        o.db() == DatabaseKind.POSTGRESQL ? "Tasklane on PostgreSQL" : "Tasklane",
        run.tap.perSecond(start, end));
    run.out.printf(
        "  insert ceiling %.0f rows/s; relay %.0f rows/s; end to end %.0f tasks/s%n",
        ceilingRate,
        r.get(o.key("relay_rows_per_s_end_to_end")),
        r.get(o.key("throughput_tasks_per_s")));
    new IdempotentThroughput(run, topics).run(Math.max(1_000, n / 4));
    new RelayAlone(run).run(n, ceilingRate);
  }

  /** The cost model: {@code cpu_us_per_task_<component>} and the stacked bar's data. */
  private void cpuPerTask(Map<String, Double> perTask) {
    perTask.forEach((component, us) -> r.put(o.key("cpu_us_per_task_" + component), us));
    Map<String, Double> parts = new java.util.LinkedHashMap<>(perTask);
    parts.remove("total");
    r.cpuPerTask.put(
        o.db() == DatabaseKind.POSTGRESQL ? "Tasklane on PostgreSQL" : "Tasklane", parts);
    run.out.printf("  CPU per task: %s µs%n", perTask);
  }

  private void scale() throws Exception {
    long pendingBefore = Probes.settledPending(run.schedulerPort, Duration.ofMinutes(5));
    long n = o.scalePending();
    long start = System.currentTimeMillis();
    long admittedAt = fill(n, pendingBefore, true);
    long pending = Probes.schedulerTasks(run.schedulerPort, "PENDING");
    r.put("pending_tasks", pending);
    r.put(
        "admission_tasks_per_s",
        (pending - pendingBefore) * 1000.0 / Math.max(1, admittedAt - start));
    double rss = Probes.rssMb(run.scheduler.pid());
    double heap = Probes.heapUsedMb(run.scheduler.pid(), true);
    r.put("scheduler_rss_mb", rss);
    r.put("scheduler_heap_used_mb_after_gc", heap);
    r.put("scheduler_rss_max_mb", r.scale.stream().mapToDouble(x -> x[2]).max().orElse(rss));
    run.out.printf(
        "  %d pending; scheduler RSS %.0f MiB, heap after GC %.0f MiB (-Xmx%s); admission %.0f tasks/s%n",
        pending, rss, heap, Recipes.SCHEDULER_HEAP, r.get("admission_tasks_per_s"));
  }

  /** Preloads {@code n} far-future tasks; returns when the scheduler counts them PENDING. */
  private long fill(long n, long pendingBefore, boolean sample) throws Exception {
    AtomicLong produced = new AtomicLong();
    long start = System.currentTimeMillis();
    Thread t =
        background(
            () ->
                Preloader.preload(
                    run.stack.bootstrapServers(),
                    topics.tasks(),
                    n,
                    Duration.ofDays(1).toMillis(),
                    produced::set));
    AtomicLong pending = new AtomicLong(pendingBefore);
    AtomicLong lastSample = new AtomicLong();
    run.progress(
        "preloading far-future tasks",
        () ->
            String.format(
                "produced %d, admitted %d of %d, scheduler RSS %.0f MiB",
                produced.get(),
                pending.get() - pendingBefore,
                n,
                Probes.rssMb(run.scheduler.pid())),
        () -> {
          long now = System.currentTimeMillis();
          if (now - lastSample.get() >= 1000) {
            lastSample.set(now);
            pending.set(Probes.schedulerTasks(run.schedulerPort, "PENDING"));
            if (sample) {
              r.scale.add(
                  new double[] {
                    (now - start) / 1000.0,
                    pending.get() - pendingBefore,
                    Probes.rssMb(run.scheduler.pid())
                  });
            }
          }
          return pending.get() - pendingBefore >= n;
        },
        Duration.ofSeconds(Math.max(180, n / 1000)));
    t.join();
    return System.currentTimeMillis();
  }

  private void delay() throws Exception {
    long pendingNow = Probes.settledPending(run.schedulerPort, Duration.ofMinutes(5));
    if (pendingNow < o.pending()) {
      fill(o.pending() - pendingNow, pendingNow, false);
    }
    int m = o.delayTasks();
    long windowMs = o.delayWindowSeconds() * 1000L;
    long first = System.currentTimeMillis() + 8_000;
    enqueuer.clear();
    enqueuer.run(m, 100, 2, i -> Instant.ofEpochMilli(first + i * windowMs / m), true);
    Map<String, Long> dues = Map.copyOf(enqueuer.dues());
    long pending = Probes.schedulerTasks(run.schedulerPort, "PENDING");
    r.put("delay_pending_tasks", pending);
    run.progress(
        String.format("%d tasks due over %d s, %d pending", m, o.delayWindowSeconds(), pending),
        () -> StartLatency.started(run, dues) + "/" + m + " started",
        () -> StartLatency.started(run, dues) >= m,
        Duration.ofMillis(first - System.currentTimeMillis() + windowMs + 60_000));
    Histogram h = Results.histogram();
    long early = 0;
    for (Map.Entry<String, Long> d : dues.entrySet()) {
      Long s = run.tap.startOf(d.getKey());
      if (s != null) {
        early += s < d.getValue() ? 1 : 0;
        h.recordValue(Math.max(0, s - d.getValue()));
      }
    }
    r.put("lateness_p50_ms", h.getValueAtPercentile(50));
    r.put("lateness_p99_ms", h.getValueAtPercentile(99));
    r.put("lateness_max_ms", h.getMaxValue());
    r.put("early_starts", early);
    r.put("lateness_missing", m - h.getTotalCount());
    r.lateness.put("Tasklane", h);
    run.out.printf(
        "  lateness (handler start − dueAt) with %d pending: p50 %d ms, p99 %d ms, max %d ms; early starts %d%n",
        pending, h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getMaxValue(), early);
  }

  interface Body {
    void run() throws Exception;
  }

  static Thread background(Body body) {
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (Throwable e) {
                System.err.println("bench: " + e);
                e.printStackTrace();
              }
            },
            "bench-load");
    t.setDaemon(true);
    t.start();
    return t;
  }

  static List<String> names() {
    return BenchOptions.ALL;
  }
}
