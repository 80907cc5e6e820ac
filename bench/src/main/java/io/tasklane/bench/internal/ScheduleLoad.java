package io.tasklane.bench.internal;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.testkit.JavaProcess;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;

/**
 * The {@code schedules} scenario, in three parts run one after the other, each writing its own
 * keys: (a) <b>fire</b>: {@code schedules} schedules firing every second through the whole
 * pipeline, fire lateness = handler start ({@code TaskResult.startedAt}) − fire instant, duplicate
 * and early fires, fires missing against the calendar; (b) <b>emit</b>: ten times as many schedules
 * firing every second, started over a {@link #RAMP_SECONDS} ramp before the watched window (a
 * freshly started JVM compiles its fire path meanwhile), a scheduler alone in a namespace of its
 * own (restarted with {@code max-dispatched} above the fires so that flow control does not hold
 * them; the worker stopped and an {@link Answerer} in the bench answering each dispatch SUCCEEDED
 * at once, so that fires finish as with a worker), emit lateness = the dispatch record's timestamp
 * − fire instant; (c) <b>held</b>: many daily schedules (one in 100 hourly) defined and held,
 * {@code schedules_held} and the scheduler's RSS. A part waits for its definitions on the
 * scheduler's {@code schedule.defined} event counter (a listing of every schedule would load the
 * scheduler it measures). Every part deletes its schedules. Runs on the bench thread; the watch has
 * its own.
 */
final class ScheduleLoad {
  private static final String EMIT_HANDLER = "emit";

  /** The time (b) allows for its definitions, besides 3 ms each, before its schedules start. */
  private static final long DEFINE_ALLOWANCE_MS = 10_000;

  /**
   * The seconds over which (b)'s schedules start, before its window: a just started JVM compiles
   * its hot paths over about the first half minute of load, with a third of its CPU.
   */
  private static final int RAMP_SECONDS = 30;

  private final BenchRun run;
  private final Topics topics;
  private final ScheduleDefinitions schedules;

  ScheduleLoad(BenchRun run, Topics topics) {
    this.run = run;
    this.topics = topics;
    this.schedules = new ScheduleDefinitions(run, topics);
  }

  void run() throws Exception {
    fire();
    alone();
  }

  /**
   * (c) and (b) on a scheduler alone, in a namespace of its own ({@code <ns>-alone}), so that its
   * stores hold their schedules and nothing of the scenarios before (millions of tasks in a full
   * run, which the run's own scheduler keeps); the worker is stopped. (c) runs first: a saturated
   * (b) leaves a backlog that (c)'s definitions would queue behind. Then the run's own scheduler
   * and worker start again.
   */
  private void alone() throws Exception {
    Topics own = new Topics(topics.namespace() + "-alone");
    run.createTopics(own);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap()))) {
      TopicAdmin.ensure(
          admin,
          List.of(TopicAdmin.Spec.of(own.handler(EMIT_HANDLER), TopicAdmin.DEFAULT_PARTITIONS)));
    }
    TasklaneApps apps = run.appsIn(own.namespace());
    ScheduleDefinitions defs = new ScheduleDefinitions(run, own);
    run.worker.stop(Duration.ofSeconds(10));
    restartScheduler(apps, "scheduler-held", false, defs);
    held(defs);
    emit(apps, own, defs);
    restartScheduler(run.apps, "scheduler-after-schedules", false, schedules);
    run.worker = run.track(Recipes.worker(run.apps, "worker-after-schedules").start());
  }

  /** (a) through the whole pipeline: lateness to the handler's start. */
  private void fire() throws Exception {
    int n = run.options.schedules();
    int secs = run.options.scheduleSeconds();
    run.step("schedules (a): " + n + " schedules every 1 s for " + secs + " s, end to end");
    List<ScheduleDefinition> defs = ScheduleDefinitions.every("bench.fire.", n, "noop", i -> "1s");
    schedules.define(defs, n);
    long start = System.currentTimeMillis() + 5_000;
    long end = start + secs * 1000L;
    Histogram lateness = Results.histogram();
    Histogram dispatched = Results.histogram();
    long early = 0;
    int fires;
    long duplicates;
    try (FireWatch watch = new FireWatch(bootstrap(), topics.handler("noop"), start, end)) {
      run.progress(
          "watching fires for " + secs + " s",
          () -> watch.size() + " fires dispatched",
          () -> System.currentTimeMillis() > end + 10_000,
          Duration.ofSeconds(secs + 60L));
      watch.close();
      fires = watch.size();
      duplicates = watch.duplicates();
      long missingStart = 0;
      for (FireWatch.Fire f : watch.fires()) {
        Long started = run.tap.startOf(f.taskId());
        if (started == null) {
          missingStart++;
          continue;
        }
        early += started < f.fireAt() ? 1 : 0; // a fire is dispatched ahead, held until then
        lateness.recordValue(Math.max(0, started - f.fireAt()));
        dispatched.recordValue(Math.max(0, f.dispatchedAt() - f.fireAt()));
      }
      run.results.put("schedule_fires_not_started", missingStart);
    }
    schedules.undefine(defs);
    long expected = (long) n * secs;
    Results r = run.results;
    r.put("schedule_fire_lateness_p50_ms", lateness.getValueAtPercentile(50));
    r.put("schedule_fire_lateness_p99_ms", lateness.getValueAtPercentile(99));
    r.put("schedule_fire_lateness_max_ms", lateness.getMaxValue());
    r.put("schedule_fire_dispatch_p50_ms", dispatched.getValueAtPercentile(50));
    r.put("schedule_fire_dispatch_p99_ms", dispatched.getValueAtPercentile(99));
    r.put("schedule_duplicate_fires", duplicates);
    r.put("schedule_early_fires", early);
    r.put("schedule_fires", fires);
    r.put("schedule_missing_fires", Math.max(0, expected - fires));
    run.out.printf(
        "  (a) %d schedules: %d fires in %d s (%d expected); fire → handler start p50 %d ms, p99"
            + " %d ms, max %d ms (fire → dispatch p50 %d ms, p99 %d ms); duplicates %d, early %d%n",
        n,
        fires,
        secs,
        expected,
        lateness.getValueAtPercentile(50),
        lateness.getValueAtPercentile(99),
        lateness.getMaxValue(),
        dispatched.getValueAtPercentile(50),
        dispatched.getValueAtPercentile(99),
        duplicates,
        early);
  }

  /**
   * (b) the scheduler alone: lateness of the dispatch record (0 for a fire sent ahead of its
   * instant, which its worker holds until then).
   */
  private void emit(TasklaneApps apps, Topics own, ScheduleDefinitions ownSchedules)
      throws Exception {
    int n = run.options.schedules() * 10;
    int secs = run.options.scheduleSeconds();
    run.step("schedules (b): " + n + " schedules every 1 s for " + secs + " s, scheduler only");
    restartScheduler(apps, "scheduler-emit", true, ownSchedules);
    // The schedules start once all are defined (startAt), so that the watched seconds measure the
    // scheduler at n fires a second, not the backlog of fires made while it was still taking the
    // definitions (about 1 ms each); and they start over a ramp, a second's share each, so that
    // the just started scheduler compiles its fire path at a load it can carry instead of
    // building a backlog it would still work off in the window.
    long rampStart =
        (System.currentTimeMillis() + DEFINE_ALLOWANCE_MS + 3L * n + 999) / 1000 * 1000;
    long start = rampStart + RAMP_SECONDS * 1000L;
    List<ScheduleDefinition> defs =
        ScheduleDefinitions.every(
            "bench.emit.",
            n,
            EMIT_HANDLER,
            i -> "1s",
            i -> rampStart + (long) i * RAMP_SECONDS / n * 1000L);
    long end = start + secs * 1000L;
    Histogram lateness = Results.histogram();
    long missing;
    long made;
    long finished;
    Map<String, Double> perFire;
    // the answerer heartbeats as a worker that holds fires sent ahead: it starts before the
    // definitions, so that the scheduler knows it before the first fire is made; the watch reads
    // what the answerer reads, so that the bench reads and decodes each dispatch once
    try (FireWatch watch = FireWatch.fed(start, end);
        Answerer done =
            new Answerer(
                bootstrap(),
                own,
                EMIT_HANDLER,
                true,
                d -> {
                  long now = System.currentTimeMillis();
                  return TaskResult.succeeded(d.id(), d.attempt(), now, now, "bench");
                },
                watch::seen);
        WindowCpu cpu = new WindowCpu(emitPids(), this::emitCounts, start, end)) {
      ownSchedules.define(defs, n);
      long definedAt = System.currentTimeMillis();
      if (definedAt > start) {
        run.out.printf(
            "  (b) the definitions took until %d ms after the schedules' first fire%n",
            definedAt - start);
      }
      run.progress(
          "ramping up for " + RAMP_SECONDS + " s, then watching dispatches for " + secs + " s",
          () -> watch.size() + " fires dispatched",
          () -> System.currentTimeMillis() > end + 10_000,
          Duration.ofMillis(end + 60_000 - System.currentTimeMillis()));
      watch.close();
      long closedAt = System.currentTimeMillis();
      Map<Long, Integer> seen = new HashMap<>();
      long ahead = 0;
      for (FireWatch.Fire f : watch.fires()) {
        // a fire sent ahead (held by its worker until the instant) counts as on time: 0
        lateness.recordValue(Math.max(0, f.dispatchedAt() - f.fireAt()));
        ahead += f.dispatchedAt() < f.fireAt() ? 1 : 0;
        seen.merge(f.fireAt(), 1, Integer::sum);
      }
      // a fire not dispatched when the watch closed is late by at least that long: counted so,
      // so that a saturated scheduler shows as late, not as an empty (0 ms) histogram
      missing = 0;
      for (long at = (start + 999) / 1000 * 1000; at < end; at += 1000) {
        int absent = Math.max(0, n - seen.getOrDefault(at, 0));
        if (absent > 0) {
          lateness.recordValueWithCount(closedAt - at, absent);
          missing += absent;
        }
      }
      run.results.put("schedule_emit_fires", watch.size());
      run.results.put("schedule_emit_missing_fires", missing);
      run.results.put("schedule_emit_duplicate_fires", watch.duplicates());
      run.results.put("schedule_emit_ahead_fires", ahead);
      made = cpu.counted();
      finished = cpu.counted(1);
      if (made >= 0) {
        run.results.put("schedule_emit_fires_per_s", made / (double) secs);
      }
      if (finished >= 0) {
        run.results.put("schedule_emit_done_per_s", finished / (double) secs);
      }
      perFire = cpu.perUnit();
      perFire.forEach((c, us) -> run.results.put("schedule_emit_cpu_us_per_fire_" + c, us));
    }
    ownSchedules.undefine(defs);
    Results r = run.results;
    r.put("schedule_emit_lateness_p50_ms", lateness.getValueAtPercentile(50));
    r.put("schedule_emit_lateness_p99_ms", lateness.getValueAtPercentile(99));
    r.put("schedule_emit_lateness_max_ms", lateness.getMaxValue());
    run.out.printf(
        "  (b) %d schedules: %d fires dispatched in %d s (%d expected; %d not dispatched when the"
            + " watch closed count as late by at least that long); fire → dispatch p50 %d ms, p99"
            + " %d ms, max %d ms%n",
        n,
        lateness.getTotalCount() - missing,
        secs,
        (long) n * secs,
        missing,
        lateness.getValueAtPercentile(50),
        lateness.getValueAtPercentile(99),
        lateness.getMaxValue());
    if (made >= 0) {
      run.out.printf(
          "  (b) fires made in the window: %.0f a second, their tasks' finishing applied: %.0f a"
              + " second; CPU µs per fire: %s%n",
          made / (double) secs, finished / (double) secs, perFire);
    }
  }

  /**
   * The processes (b)'s CPU is split over: the scheduler, the broker and this JVM (the bench: the
   * answerer and the watch).
   */
  private Map<String, Long> emitPids() {
    Map<String, Long> pids = new LinkedHashMap<>();
    pids.put("scheduler", run.scheduler.pid());
    pids.put("broker", run.stack.kafkaPid());
    pids.put("bench", ProcessHandle.current().pid());
    return pids;
  }

  /**
   * The fires the (b) scheduler made so far ({@code schedule.fired}) and the finished-task notices
   * of fires it applied ({@code schedule.fire-done}), from one scrape; -1 when it does not answer.
   */
  private long[] emitCounts() {
    return Probes.schedulerEvents(run.schedulerPort, "schedule.fired", "schedule.fire-done");
  }

  /** (c) many daily schedules held: count and the scheduler's RSS. */
  private void held(ScheduleDefinitions ownSchedules) throws Exception {
    int n = run.options.quick() ? 20_000 : 1_000_000;
    run.step("schedules (c): " + n + " schedules held (daily, one in 100 hourly)");
    List<ScheduleDefinition> defs =
        ScheduleDefinitions.every("bench.held.", n, "noop", i -> i % 100 == 0 ? "1h" : "24h");
    long held = ownSchedules.define(defs, n);
    double rss = Probes.rssMb(run.scheduler.pid());
    run.results.put("schedules_held", held);
    run.results.put("schedules_rss_mb", rss);
    run.out.printf("  (c) %d of %d schedules held; scheduler RSS %.0f MiB%n", held, n, rss);
    ownSchedules.undefine(defs);
  }

  /**
   * Replaces the scheduler with a new instance (the stores restored from their changelogs); {@code
   * uncapped}: {@code max-dispatched} high enough that no fire waits for a slot without a worker.
   */
  private void restartScheduler(
      TasklaneApps apps, String name, boolean uncapped, ScheduleDefinitions waitOn)
      throws InterruptedException {
    run.scheduler.stop(Duration.ofSeconds(30));
    int port = FreePorts.next();
    JavaProcess.Builder b = Recipes.scheduler(apps, name, port);
    if (uncapped) {
      b.sysProp("tasklane.scheduler.max-dispatched", "1000000");
    }
    run.scheduler = run.track(b.start());
    run.schedulerPort = port;
    run.progress(
        "starting " + name,
        () -> "waiting until its stores are restored and the API answers",
        () -> {
          if (!run.scheduler.isAlive()) {
            throw new IllegalStateException(name + " died:\n" + run.scheduler.logTail(30));
          }
          return waitOn.defined() >= 0 && Probes.apiAnswers(port, "/api/tasks/counts");
        },
        Duration.ofSeconds(180));
  }

  private String bootstrap() {
    return run.stack.bootstrapServers();
  }
}
