package io.tasklane.bench;

import io.tasklane.bench.internal.BenchOptions;
import io.tasklane.bench.internal.BenchRun;
import io.tasklane.bench.internal.Report;
import io.tasklane.bench.internal.Results;
import io.tasklane.harness.Cli;
import io.tasklane.harness.DatabaseKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/bench [scenario...] [--quick]}: runs the benchmark scenarios on a private local stack
 * and writes {@code target/bench/results.json} and {@code docs/benchmarks.md}. Exit code 0 when
 * every scenario ran, 1 on an error.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description =
        "Tasklane benchmarks: throughput, peer (db-scheduler, JobRunr), latency, scale, delay, failover,"
            + " api, lanes, priorities, schedules; scaleout only when named. lanes: (a) ordered lanes, N"
            + " ordering keys x 20 tasks, 10%% failing once: out-of-order starts and overlapping"
            + " runs per key (both must be 0) and the throughput as a share of the same tasks"
            + " without keys; (b) fairness: one concurrency key with a large backlog and 50 quiet"
            + " keys at 10 tasks/s each, the quiet keys' commit -> handler start p99 against the"
            + " same quiet load alone; (c) maxPerKey 3 set through the API, a kill -9 of a worker"
            + " mid-run: the most tasks of one key running at once (<= 3), every task finished."
            + " priorities: priority-9 tasks at 50/s, commit -> handler start p99 beside a backlog"
            + " of priority-0 tasks against the same load alone.")
public final class BenchMain implements Callable<Integer> {
  @Parameters(
      arity = "0..*",
      description = "scenarios (default: all but scaleout): ${COMPLETION-CANDIDATES}",
      completionCandidates = Names.class)
  List<String> scenarios = new ArrayList<>();

  @Option(names = "--quick", description = "short mode (< 3 minutes): small N everywhere")
  boolean quick;

  @Mixin Cli.Home home;

  @Mixin Cli.Db db;

  @Option(names = "--tasks", description = "N of throughput and peer (default 200000; quick 10000)")
  Integer tasks;

  @Option(
      names = "--warmup",
      description =
          "tasks run end to end before the first scenario, reported apart (default 100000; quick"
              + " 5000; 0 for none)")
  Integer warmup;

  @Option(names = "--rate", description = "offered tasks/s of latency (default 1000)")
  Integer rate;

  @Option(names = "--seconds", description = "duration of latency (default 60; quick 10)")
  Integer seconds;

  @Option(
      names = "--pending",
      description = "far-future tasks pending in delay (default 1000000; quick 20000)")
  Long pending;

  @Option(names = "--due", description = "tasks due during delay (default 10000; quick 1000)")
  Integer due;

  @Option(
      names = "--window",
      description = "seconds over which the delay tasks are due (default 60; quick 10)")
  Integer window;

  @Option(
      names = "--scale",
      description = "tasks admitted by scale (default 1000000, --long 10000000; quick 20000)")
  Long scale;

  @Option(
      names = "--schedules",
      description =
          "1-second schedules of schedules (a), end to end; (b) fires ten times as many through"
              + " the scheduler alone (default 1000; quick 200)")
  Integer schedules;

  @Option(names = "--long", description = "scale with 10,000,000 pending tasks")
  boolean longMode;

  @Option(
      names = "--jfr",
      description = "record relay, scheduler and worker with JFR (files in target/bench/run-*)")
  boolean jfr;

  @Option(names = "--no-docs", description = "do not regenerate docs/benchmarks.md")
  boolean noDocs;

  @Option(
      names = "--scheduler-setting",
      paramLabel = "KEY=VALUE",
      description =
          "a setting of every scheduler started, by key after tasklane.scheduler. (e.g."
              + " kafka.num.stream.threads=2); repeatable; recorded in results.json; settings a"
              + " scenario sets itself stay its own")
  Map<String, String> schedulerSettings = new LinkedHashMap<>();

  @Option(
      names = "--brokers",
      description =
          "Kafka brokers of the private stack: 1 (default) or 3 (a KRaft cluster at Kafka's topic"
              + " defaults; failover then measures broker faults: kill -9 of the leader of the"
              + " most task partitions, kill -9 of the active controller, a clean shutdown)")
  int brokers = 1;

  @Option(
      names = "--broker-setting",
      paramLabel = "KEY=VALUE",
      description =
          "a setting of every broker of a --brokers 3 stack (e.g."
              + " broker.session.timeout.ms=3000); repeatable; recorded in results.json")
  Map<String, String> brokerSettings = new LinkedHashMap<>();

  @Option(
      names = "--kafka-client-setting",
      paramLabel = "KEY=VALUE",
      description =
          "a Kafka client setting of the relay, every scheduler and every worker"
              + " (tasklane.<app>.kafka.KEY, e.g. request.timeout.ms=5000); repeatable; recorded in"
              + " results.json")
  Map<String, String> kafkaClientSettings = new LinkedHashMap<>();

  @Option(
      names = "--failover-rate",
      description = "offered tasks/s of failover (default 500; quick 200; --brokers 3: 200)")
  Integer failoverRate;

  @Option(
      names = "--failover-seconds",
      description =
          "seconds of failover load, the fault at a third (default 30; quick 15; --brokers 3: 45"
              + " per broker fault)")
  Integer failoverSeconds;

  @Option(
      names = "--scaleout-rate",
      description = "offered tasks/s of each phase of scaleout (default 300)")
  Integer scaleoutRate;

  @Option(
      names = "--scaleout-seconds",
      description = "seconds of each phase of scaleout (default 30)")
  Integer scaleoutSeconds;

  @Option(
      names = "--lanes-keys",
      description = "ordering keys of lanes (a), 20 tasks each (default 10000; quick 500)")
  Integer lanesKeys;

  @Option(
      names = "--lanes-backlog",
      description =
          "backlog of the busy concurrency key of lanes (b) (default 300000, enough to outlast"
              + " the quiet load; quick 10000)")
  Integer lanesBacklog;

  @Option(
      names = "--priorities-backlog",
      description =
          "low-priority backlog of priorities, 2 ms per task (default 100000; quick 30000)")
  Integer prioritiesBacklog;

  static final class Names extends ArrayList<String> {
    Names() {
      super(BenchOptions.KNOWN);
    }
  }

  @Override
  public Integer call() throws Exception {
    BenchOptions o = options();
    System.out.println(
        "bin/bench: "
            + String.join(", ", o.scenarios())
            + (quick ? " (quick)" : "")
            + " on "
            + o.db().label()
            + (o.brokers() > 1 ? ", " + o.brokers() + " Kafka brokers" : ""));
    try (BenchRun run = new BenchRun(o, System.out, null)) {
      Results r = run.execute();
      finish(o, r);
    }
    return 0;
  }

  BenchOptions options() {
    DatabaseKind kind = db.kind();
    List<String> s =
        !scenarios.isEmpty()
            ? scenarios
            : kind == DatabaseKind.POSTGRESQL ? BenchOptions.POSTGRES_SCENARIOS : BenchOptions.ALL;
    return BenchOptions.builder(home.path())
        .db(kind)
        .scenarios(s)
        .quick(quick)
        .tasks(or(tasks, quick ? 10_000 : 200_000))
        .warmupTasks(or(warmup, quick ? 5_000 : 300_000))
        .latency(or(rate, 1000), or(seconds, quick ? 10 : 60))
        .pending(or(pending, quick ? 20_000L : 1_000_000L))
        .delay(or(due, quick ? 1000 : 10_000), or(window, quick ? 10 : 60))
        .scalePending(or(scale, quick ? 20_000L : longMode ? 10_000_000L : 1_000_000L))
        .failover(
            or(failoverRate, quick || brokers > 1 ? 200 : 500),
            or(failoverSeconds, brokers > 1 ? 45 : quick ? 15 : 30))
        .scaleout(or(scaleoutRate, 300), or(scaleoutSeconds, 30))
        .schedules(or(schedules, quick ? 200 : 1_000), quick ? 20 : 60)
        .jfr(jfr)
        .writeDocs(!noDocs)
        .schedulerSettings(schedulerSettings)
        .brokers(brokers)
        .brokerSettings(brokerSettings)
        .kafkaClientSettings(kafkaClientSettings)
        .lanes(or(lanesKeys, quick ? 500 : 10_000), or(lanesBacklog, quick ? 10_000 : 300_000))
        .prioritiesBacklog(or(prioritiesBacklog, quick ? 30_000 : 100_000))
        .build();
  }

  static void finish(BenchOptions o, Results r) throws java.io.IOException {
    Path json = Report.writeJson(o.home(), r, o);
    System.out.println("results: " + json);
    if (o.writeDocs()) {
      System.out.println("report: " + Report.writeDocs(o.home(), r, o));
    }
    r.map().forEach((k, v) -> System.out.printf("  %-36s %s%n", k, v));
  }

  private static <T> T or(T value, T dflt) {
    return value != null ? value : dflt;
  }

  public static void main(String[] args) {
    Cli.exit(new BenchMain(), args);
  }
}
