package io.tasklane.bench.internal;

import io.tasklane.bench.NoopHandler;
import io.tasklane.core.Topics;
import io.tasklane.harness.FreePorts;
import io.tasklane.testkit.JavaProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;

/**
 * The {@code scaleout} scenario: one paced load ({@code --scaleout-rate} tasks/s of the no-op
 * handler for {@code --scaleout-seconds}) offered five times while instances join and leave: 1
 * scheduler + 1 worker; a second scheduler joined; a second worker joined; the second scheduler
 * stopped (scale-in); the second worker stopped. Per phase, under {@code scaleout_<phase>_}: the
 * rate that started, commit → handler start p50 and p99, tasks not started 60 s after the load
 * (lost would stay there), the CPU per task of every process, and the spread of partitions over the
 * instances: {@code <ns>.tasks} partitions per scheduler (its Kafka Streams group) and handler
 * partitions per worker (the handler's group), e.g. {@code "3+3"}; and how long after a join or
 * leave the partitions were spread over the instances ({@code scaleout_<phase>_spread_s}: Kafka
 * Streams moves active tasks to a new instance only at a probing rebalance, {@code
 * kafka.probing.rebalance.interval.ms}, 10 min by default). Runs on the bench thread; the load on
 * its own threads.
 */
final class ScaleOut {
  private static final Duration SETTLE = Duration.ofSeconds(5);
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);
  private static final Topics TOPICS = new Topics(BenchRun.NAMESPACE);
  private static final String HANDLER_TOPIC = TOPICS.handler(NoopHandler.NAME);
  private final BenchRun run;

  ScaleOut(BenchRun run) {
    this.run = run;
  }

  void run() throws Exception {
    int rate = run.options.scaleoutRate();
    int secs = run.options.scaleoutSeconds();
    Enqueuer enqueuer = new Enqueuer(run.url, run.db.user(), run.db.password());
    Map<String, JavaProcess> extra = new LinkedHashMap<>();
    try (Admin admin = Admin.create(run.stack.kafkaAdminProperties())) {
      phase("1s1w", admin, enqueuer, extra, rate, secs);

      int port2 = FreePorts.next();
      extra.put(
          "scheduler-2", run.track(Recipes.scheduler(run.apps, "scheduler-2", port2).start()));
      awaitMembers(
          admin, schedulerGroup(), TOPICS.tasks(), 2, "scheduler-2 taking task partitions", "2s1w");
      phase("2s1w", admin, enqueuer, extra, rate, secs);

      extra.put("worker-2", run.track(Recipes.worker(run.apps, "worker-2").start()));
      awaitMembers(admin, workerGroup(), HANDLER_TOPIC, 2, "worker-2 joining the handler", "2s2w");
      phase("2s2w", admin, enqueuer, extra, rate, secs);

      extra.remove("scheduler-2").stop(STOP_GRACE);
      awaitMembers(
          admin,
          schedulerGroup(),
          TOPICS.tasks(),
          1,
          "scheduler-2 leaving (clean stop)",
          "in_1s2w");
      phase("in_1s2w", admin, enqueuer, extra, rate, secs);

      extra.remove("worker-2").stop(STOP_GRACE);
      awaitMembers(admin, workerGroup(), HANDLER_TOPIC, 1, "worker-2 leaving", "in_1s1w");
      phase("in_1s1w", admin, enqueuer, extra, rate, secs);
    } finally {
      for (JavaProcess p : extra.values()) {
        p.stop(STOP_GRACE);
      }
    }
  }

  private void phase(
      String name,
      Admin admin,
      Enqueuer enqueuer,
      Map<String, JavaProcess> extra,
      int rate,
      int secs)
      throws Exception {
    TimeUnit.MILLISECONDS.sleep(SETTLE.toMillis());
    String schedulers = spread(admin, schedulerGroup(), TOPICS.tasks());
    String workers = spread(admin, workerGroup(), HANDLER_TOPIC);
    Map<String, Long> pids = new LinkedHashMap<>(run.cpuPids());
    extra.forEach((n, p) -> pids.put(n, p.pid()));
    enqueuer.clear();
    Map<String, Long> cpuBefore = CpuTimes.sample(pids);
    Thread load = Scenarios.background(() -> enqueuer.paced(rate, secs, 2, null));
    run.progress(
        String.format(
            "scale-out %s: %d tasks/s for %d s (schedulers %s, workers %s)",
            name, rate, secs, schedulers, workers),
        () -> enqueuer.enqueued() + " committed, " + started(enqueuer.commits()) + " started",
        () -> !load.isAlive(),
        Duration.ofSeconds(secs * 3L + 30));
    Map<String, Long> commits = Map.copyOf(enqueuer.commits());
    run.progress(
        "scale-out " + name + ": every task started",
        () -> started(commits) + "/" + commits.size(),
        () -> started(commits) >= commits.size(),
        Duration.ofSeconds(60));
    Map<String, Double> cpu = CpuTimes.perTask(cpuBefore, CpuTimes.sample(pids), started(commits));
    Histogram latency = Results.histogram();
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (Map.Entry<String, Long> e : commits.entrySet()) {
      Long s = run.tap.startOf(e.getKey());
      if (s != null) {
        latency.recordValue(Math.max(0, s - e.getValue()));
        first = Math.min(first, e.getValue());
        last = Math.max(last, s);
      }
    }
    String k = "scaleout_" + name + "_";
    long ran = started(commits);
    run.results.put(k + "tasks", commits.size());
    run.results.put(k + "tasks_per_s", ran * 1000.0 / Math.max(1, last - first));
    run.results.put(k + "p50_ms", latency.getValueAtPercentile(50));
    run.results.put(k + "p99_ms", latency.getValueAtPercentile(99));
    run.results.put(k + "unstarted", commits.size() - ran);
    run.results.put(k + "scheduler_spread", schedulers);
    run.results.put(k + "worker_spread", workers);
    cpu.forEach((component, us) -> run.results.put(k + "cpu_us_per_task_" + component, us));
    run.out.printf(
        "  %s: %d tasks, %.0f started/s, p50 %d ms, p99 %d ms, not started %d; CPU %.0f µs/task;"
            + " partitions per scheduler %s, per worker %s%n",
        name,
        commits.size(),
        ran * 1000.0 / Math.max(1, last - first),
        latency.getValueAtPercentile(50),
        latency.getValueAtPercentile(99),
        commits.size() - ran,
        cpu.getOrDefault("total", 0.0),
        schedulers,
        workers);
  }

  /**
   * Waits until {@code members} members of {@code group} each hold partitions of {@code topic}
   * (Kafka Streams first gives a new instance warm-up replicas and moves active tasks to it at a
   * probing rebalance), recording how long that took as {@code scaleout_<phase>_spread_s}.
   */
  private void awaitMembers(
      Admin admin, String group, String topic, int members, String label, String phase)
      throws InterruptedException {
    long t0 = System.currentTimeMillis();
    boolean spread =
        run.progress(
            label,
            () -> group + ": " + spreadOrError(admin, group, topic),
            () -> {
              List<Integer> counts = memberCounts(admin, group, topic);
              return counts.size() == members && counts.stream().allMatch(c -> c > 0);
            },
            Duration.ofSeconds(300));
    run.results.put(
        "scaleout_" + phase + "_spread_s",
        spread ? (System.currentTimeMillis() - t0) / 1000.0 : -1);
  }

  private String spreadOrError(Admin admin, String group, String topic) {
    try {
      return String.valueOf(memberCounts(admin, group, topic));
    } catch (RuntimeException e) {
      return e.getMessage();
    }
  }

  /** The partitions of {@code topic} each member of {@code group} holds, largest first: "3+3". */
  private static String spread(Admin admin, String group, String topic) {
    List<Integer> counts = memberCounts(admin, group, topic);
    StringBuilder b = new StringBuilder();
    for (int c : counts) {
      b.append(b.length() == 0 ? "" : "+").append(c);
    }
    return b.length() == 0 ? "none" : b.toString();
  }

  /**
   * Partitions per member of {@code group} (of {@code topic}, or of any topic when null), largest
   * first; members holding none count as 0.
   */
  private static List<Integer> memberCounts(Admin admin, String group, String topic) {
    try {
      ConsumerGroupDescription d =
          admin.describeConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group);
      List<Integer> counts = new ArrayList<>();
      for (MemberDescription m : d.members()) {
        counts.add(
            (int)
                m.assignment().topicPartitions().stream()
                    .filter(tp -> topic == null || tp.topic().equals(topic))
                    .count());
      }
      counts.sort((a, b) -> Integer.compare(b, a));
      return counts;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    } catch (Exception e) {
      throw new IllegalStateException("cannot describe group " + group + ": " + e, e);
    }
  }

  private String schedulerGroup() {
    return BenchRun.NAMESPACE + "-scheduler";
  }

  private String workerGroup() {
    return BenchRun.NAMESPACE + "-worker." + NoopHandler.NAME;
  }

  private long started(Map<String, Long> ids) {
    return ids.keySet().stream().filter(id -> run.tap.startOf(id) != null).count();
  }
}
