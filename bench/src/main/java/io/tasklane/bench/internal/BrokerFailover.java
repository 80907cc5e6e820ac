package io.tasklane.bench.internal;

import io.tasklane.core.Topics;
import io.tasklane.testkit.KafkaCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The failover scenario of a 3-broker run ({@code bin/bench failover --brokers 3}): under a steady
 * offered load, one broker fault at a third of it, then the broker started again and every replica
 * back in sync before the next fault. Faults, in order:
 *
 * <ul>
 *   <li>{@code leader_kill}: kill -9 of the broker leading the most partitions of {@code
 *       <ns>.tasks};
 *   <li>{@code controller_kill}: kill -9 of the active KRaft controller;
 *   <li>{@code clean}: a clean shutdown (SIGTERM: a controlled shutdown moves its leaderships) of
 *       the broker leading the most task partitions.
 * </ul>
 *
 * Per fault, in results.json: {@code broker_failover_<fault>_pause_ms}, the longest gap between
 * consecutive handler starts (of the load's tasks) that ends after the fault: how long dispatch
 * stopped; {@code _worst_delay_ms}, the longest commit → handler start of the tasks committed from
 * 2 s before the fault to the end of the load; {@code _lost}, committed tasks that never started
 * (waited for up to 180 s); {@code _broker}, the node hit; {@code _tasks}, the load's tasks.
 *
 * <p>Runs on the bench thread; the load on its own threads.
 */
final class BrokerFailover {
  static final List<String> FAULTS = List.of("leader_kill", "controller_kill", "clean");

  /** The downtime of the broker hit before it is started again (after the measure). */
  private static final Duration SETTLE = Duration.ofSeconds(3);

  private final BenchRun run;
  private final Enqueuer enqueuer;
  private final Topics topics;

  BrokerFailover(BenchRun run, Enqueuer enqueuer, Topics topics) {
    this.run = run;
    this.enqueuer = enqueuer;
    this.topics = topics;
  }

  void run() throws Exception {
    KafkaCluster cluster =
        run.stack
            .kafkaCluster()
            .orElseThrow(() -> new IllegalStateException("--brokers 3 without a cluster"));
    for (String fault : FAULTS) {
      run.step("broker fault " + fault);
      cluster.awaitInSync(Duration.ofMinutes(3));
      // a short quiet load first: every client has fresh metadata and open connections
      enqueuer.clear();
      enqueuer.paced(50, 2, 1, null);
      TimeUnit.SECONDS.sleep(2);
      measure(cluster, fault);
    }
  }

  private void measure(KafkaCluster cluster, String fault) throws Exception {
    int rate = run.options.failoverRate();
    int secs = run.options.failoverSeconds();
    enqueuer.clear();
    AtomicLong faultAt = new AtomicLong();
    AtomicLong faultDone = new AtomicLong();
    AtomicInteger victim = new AtomicInteger();
    Thread load = Scenarios.background(() -> enqueuer.paced(rate, secs, 2, null));
    long faultTime = System.currentTimeMillis() + secs * 1000L / 3;
    Thread hit = null;
    long end = System.currentTimeMillis() + secs * 3000L + 60_000;
    long nextPrint = 0;
    while (load.isAlive() || (hit != null && hit.isAlive())) {
      if (hit == null && System.currentTimeMillis() >= faultTime) {
        // the fault on its own thread: a clean shutdown blocks for seconds
        hit =
            new Thread(
                () -> {
                  int v =
                      fault.equals("controller_kill")
                          ? cluster.activeController()
                          : cluster.leaderOfMostPartitions(topics.tasks());
                  victim.set(v);
                  faultAt.set(System.currentTimeMillis());
                  if (fault.equals("clean")) {
                    cluster.stop(v);
                  } else {
                    cluster.kill(v);
                  }
                  faultDone.set(System.currentTimeMillis());
                },
                "bench-broker-fault");
        hit.start();
      }
      if (System.currentTimeMillis() > end) {
        throw new IllegalStateException("broker fault " + fault + ": the load did not end");
      }
      if (System.currentTimeMillis() >= nextPrint) {
        run.out.printf(
            "\r  [%5.1fs] %d tasks/s for %d s, %s at %d s: %d committed%s        ",
            (System.currentTimeMillis() - run.t0) / 1000.0,
            rate,
            secs,
            fault,
            secs / 3,
            enqueuer.enqueued(),
            victim.get() > 0 ? ", broker " + victim.get() + " hit" : "");
        run.out.flush();
        nextPrint = System.currentTimeMillis() + 1000;
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
    run.out.println();
    long loadEnd = System.currentTimeMillis();
    Map<String, Long> commits = Map.copyOf(enqueuer.commits());
    run.progress(
        "waiting for every task",
        () -> started(commits) + "/" + commits.size() + " started",
        () -> started(commits) >= commits.size(),
        Duration.ofSeconds(180));
    long at = faultAt.get();
    List<Long> starts = new ArrayList<>();
    long worst = 0;
    for (Map.Entry<String, Long> e : commits.entrySet()) {
      Long s = run.tap.startOf(e.getKey());
      if (s != null) {
        starts.add(s);
      }
      if (e.getValue() >= at - 2000 && e.getValue() <= loadEnd) {
        long wait = (s == null ? System.currentTimeMillis() : s) - e.getValue();
        worst = Math.max(worst, wait);
      }
    }
    starts.sort(null);
    long pause = 0;
    for (int i = 1; i < starts.size(); i++) {
      if (starts.get(i) >= at) {
        pause = Math.max(pause, starts.get(i) - Math.max(starts.get(i - 1), at - 1000));
      }
    }
    long lost = commits.size() - started(commits);
    String k = "broker_failover_" + fault;
    run.results.put(k + "_pause_ms", pause);
    run.results.put(k + "_worst_delay_ms", worst);
    run.results.put(k + "_lost", lost);
    run.results.put(k + "_broker", victim.get());
    run.results.put(k + "_tasks", commits.size());
    if (fault.equals("clean")) {
      run.results.put(k + "_shutdown_ms", faultDone.get() - at);
    }
    run.out.printf(
        "  %s of broker %d: dispatch paused %,d ms (longest gap in handler starts), worst commit →"
            + " start %,d ms, %d of %d lost%n",
        fault, victim.get(), pause, worst, lost, commits.size());
    TimeUnit.MILLISECONDS.sleep(SETTLE.toMillis());
    run.step("starting broker " + victim.get() + " again");
    cluster.restart(victim.get());
  }

  private long started(Map<String, Long> ids) {
    return ids.keySet().stream().filter(id -> run.tap.startOf(id) != null).count();
  }
}
