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
 * 2 s before the fault to the end of the load ({@code _p99_delay_ms} and {@code _delayed_over_5s}
 * of the same tasks); {@code _lost}, committed tasks that never started (waited for up to 180 s);
 * {@code _worst_commit_to_send_ms} and {@code _worst_send_to_start_ms} split the delay at the
 * relay's send (the producer timestamp of the task's record): the relay's part, and the rest (the
 * relay's write, the scheduler, the worker); {@code _broker}, the node hit; {@code _tasks}, the
 * load's tasks.
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
  private DispatchTap dispatches;

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
    run.tap.keepSends(true);
    dispatches = run.track(new DispatchTap(run.stack.bootstrapServers(), topics.handler("noop")));
    for (String fault : FAULTS) {
      run.step("broker fault " + fault);
      cluster.awaitInSync(Duration.ofMinutes(3));
      // a short quiet load first: every client has fresh metadata and open connections
      enqueuer.clear();
      enqueuer.paced(50, 2, 1, null);
      TimeUnit.SECONDS.sleep(2);
      measure(cluster, fault);
    }
    run.tap.keepSends(false);
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
    List<Long> waits = new ArrayList<>();
    long relayWorst = 0;
    long afterSendWorst = 0;
    long toDispatchWorst = 0;
    long dispatchToStartWorst = 0;
    for (Map.Entry<String, Long> e : commits.entrySet()) {
      Long s = run.tap.startOf(e.getKey());
      if (s != null) {
        starts.add(s);
      }
      if (e.getValue() >= at - 2000 && e.getValue() <= loadEnd) {
        waits.add((s == null ? System.currentTimeMillis() : s) - e.getValue());
        Long sent = run.tap.sendOf(e.getKey());
        Long dispatched = dispatches.sentAt(e.getKey());
        if (sent != null && dispatched != null) {
          toDispatchWorst = Math.max(toDispatchWorst, dispatched - sent);
        }
        if (dispatched != null && s != null) {
          dispatchToStartWorst = Math.max(dispatchToStartWorst, s - dispatched);
        }
        if (sent != null) {
          relayWorst = Math.max(relayWorst, sent - e.getValue());
          if (s != null) {
            afterSendWorst = Math.max(afterSendWorst, s - sent);
          }
        }
      }
    }
    waits.sort(null);
    long worst = waits.isEmpty() ? 0 : waits.get(waits.size() - 1);
    long p99 =
        waits.isEmpty() ? 0 : waits.get((int) Math.min(waits.size() - 1, waits.size() * 0.99));
    long over5s = waits.stream().filter(w -> w > 5000).count();
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
    run.results.put(k + "_p99_delay_ms", p99);
    run.results.put(k + "_delayed_over_5s", over5s);
    run.results.put(k + "_worst_commit_to_send_ms", relayWorst);
    run.results.put(k + "_worst_send_to_start_ms", afterSendWorst);
    run.results.put(k + "_worst_send_to_dispatch_ms", toDispatchWorst);
    run.results.put(k + "_worst_dispatch_to_start_ms", dispatchToStartWorst);
    run.results.put(k + "_lost", lost);
    run.results.put(k + "_broker", victim.get());
    run.results.put(k + "_tasks", commits.size());
    if (fault.equals("clean")) {
      run.results.put(k + "_shutdown_ms", faultDone.get() - at);
    }
    run.out.printf(
        "  %s of broker %d: dispatch paused %,d ms (longest gap in handler starts), worst commit →"
            + " start %,d ms (p99 %,d ms, %d over 5 s; worst commit → relay send %,d ms, relay"
            + " send → start %,d ms = relay send → scheduler dispatch ≤ %,d ms + dispatch → start ≤"
            + " %,d ms), %d of %d lost%n",
        fault,
        victim.get(),
        pause,
        worst,
        p99,
        over5s,
        relayWorst,
        afterSendWorst,
        toDispatchWorst,
        dispatchToStartWorst,
        lost,
        commits.size());
    TimeUnit.MILLISECONDS.sleep(SETTLE.toMillis());
    run.step("starting broker " + victim.get() + " again");
    cluster.restart(victim.get());
  }

  private long started(Map<String, Long> ids) {
    return ids.keySet().stream().filter(id -> run.tap.startOf(id) != null).count();
  }
}
