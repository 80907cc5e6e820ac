package io.tasklane.chaos.internal;

import io.tasklane.chaos.ChaosOptions;
import io.tasklane.harness.DatabaseKind;
import io.tasklane.testkit.KafkaCluster;
import io.tasklane.testkit.LocalStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The faults of a run, on the chaos thread: {@code cycles} kill -9 + restart of a random app every
 * 5–15 s (each app once per round of five), the broker restart halfway (on a three-broker cluster:
 * the broker faults of {@link #brokerFaults}), the MariaDB restart at two thirds, and the binlog
 * purge under a stopped relay at the end. After each fault a {@link Probe} measures recovery on a
 * probe thread of its own, so the faults keep their schedule however long a recovery takes; {@link
 * #awaitProbes} collects the figures.
 */
public final class Faults {
  /**
   * Long enough to measure a recovery that waits behind a backlog (probes run on their own threads,
   * so a long wait never delays the next fault).
   */
  private static final Duration PROBE_TIMEOUT = Duration.ofMinutes(15);

  private static final Duration DOWNTIME = Duration.ofSeconds(3);
  private final ChaosOptions options;
  private final LocalStack stack;
  private final KafkaCluster kafka; // null: the stack's single broker
  private final Cluster cluster;
  private final Probe probe;
  private final List<String> notes;
  private final Consumer<String> step;
  private final SplittableRandom random;
  private final SchedulersRunning schedulers;
  private final List<String> lines = new ArrayList<>();
  private final List<String> round = new ArrayList<>();
  private final ExecutorService probes =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "chaos-probe");
            t.setDaemon(true);
            return t;
          });
  private final List<Future<String>> pending = new ArrayList<>();
  private final List<Window> windows = new ArrayList<>();
  private double maxRecovery;
  private int kills;

  /**
   * A fault during which a schedule's fires may be missed: a scheduler killed or the broker down,
   * from the fault's start until the first task committed after it took effect has run and every
   * scheduler runs its stream tasks again (epoch millis).
   */
  public record Window(String what, long startMs, long endMs) {
    /** Whether a fire at {@code fireAt} lies in this window, with {@code slackMs} on each side. */
    public boolean covers(long fireAt, long slackMs) {
      return fireAt >= startMs - slackMs && fireAt <= endMs + slackMs;
    }
  }

  /**
   * @param kafka the private three-broker cluster of a {@code --brokers 3} run, else null (the
   *     stack's broker is restarted once instead)
   */
  public Faults(
      ChaosOptions options,
      LocalStack stack,
      KafkaCluster kafka,
      Cluster cluster,
      Probe probe,
      List<String> notes,
      Consumer<String> step) {
    this.options = options;
    this.stack = stack;
    this.kafka = kafka;
    this.cluster = cluster;
    this.probe = probe;
    this.notes = notes;
    this.step = step;
    this.random = new SplittableRandom(options.seed());
    this.schedulers = new SchedulersRunning(cluster.schedulerPorts());
  }

  public void runAll() throws Exception {
    skipMariaDbFaultsOnPostgres();
    int brokerAt = Math.max(1, options.cycles() / 2);
    int mariaDbAt = Math.max(1, options.cycles() * 2 / 3);
    pause(System.nanoTime(), options.minGap());
    for (int cycle = 1; cycle <= options.cycles(); cycle++) {
      long since = System.nanoTime();
      long sinceMs = System.currentTimeMillis();
      String victim = nextVictim();
      cluster.killAndRestart(victim);
      kills++;
      recovered(
          "cycle " + cycle + "/" + options.cycles() + ": kill -9 " + victim,
          since,
          victim.startsWith("scheduler") ? sinceMs : -1);
      if (kafka != null && options.brokerRestart()) {
        brokerFaults(cycle);
      } else if (cycle == brokerAt && options.brokerRestart()) {
        long b = System.nanoTime();
        long bMs = System.currentTimeMillis();
        stack.restartKafka(DOWNTIME);
        recovered("Kafka broker restart (" + DOWNTIME.toSeconds() + " s down)", b, bMs);
      }
      if (cycle == mariaDbAt && options.mariaDbRestart() && onMariaDb()) {
        long m = System.nanoTime();
        stack.restartMariaDb(DOWNTIME);
        recovered("MariaDB restart (" + DOWNTIME.toSeconds() + " s down)", m, -1);
      }
      long gap =
          options.minGap().toMillis()
              + random.nextLong(options.maxGap().toMillis() - options.minGap().toMillis() + 1);
      pause(since, Duration.ofMillis(gap));
    }
    if (options.binlogPurge() && onMariaDb()) {
      purgeBinlogUnderStoppedRelay();
    }
  }

  /**
   * The broker faults of a three-broker run, spread over the cycles: kill -9 of the broker leading
   * the most task partitions, then of the active controller (each started again after a random
   * gap), a rolling restart of all three (a clean stop and start, one at a time, each caught up
   * before the next), and last one broker killed and left down: the cluster runs on 2 of 3 to the
   * end. Before the rolling restart and the last kill the replicas are waited into sync.
   */
  private void brokerFaults(int cycle) throws InterruptedException {
    int n = options.cycles();
    String tasks = new io.tasklane.core.Topics(io.tasklane.chaos.ChaosRun.NAMESPACE).tasks();
    if (cycle == Math.max(1, n / 5)) {
      int id = kafka.leaderOfMostPartitions(tasks);
      brokerDown(id, "broker " + id + " (leading the most task partitions) kill -9");
    }
    if (cycle == Math.max(1, 2 * n / 5)) {
      int id = kafka.activeController();
      brokerDown(id, "broker " + id + " (the active KRaft controller) kill -9");
    }
    if (cycle == Math.max(1, 3 * n / 5)) {
      kafka.awaitInSync(Duration.ofMinutes(5));
      long since = System.nanoTime();
      long sinceMs = System.currentTimeMillis();
      for (int id : kafka.ids()) {
        kafka.stop(id);
        kafka.restart(id);
        kafka.awaitInSync(Duration.ofMinutes(5));
      }
      recovered("rolling restart of brokers " + kafka.ids(), since, sinceMs);
    }
    if (cycle == Math.max(1, 4 * n / 5)) {
      kafka.awaitInSync(Duration.ofMinutes(5));
      long since = System.nanoTime();
      long sinceMs = System.currentTimeMillis();
      int controller = kafka.activeController();
      int id = kafka.ids().stream().filter(i -> i != controller).findFirst().orElseThrow();
      kafka.kill(id);
      recovered(
          "broker " + id + " kill -9, left down for the rest of the run (2 of 3 brokers)",
          since,
          sinceMs);
    }
  }

  /** Kills broker {@code id}, starts it again after a random gap, and probes the recovery. */
  private void brokerDown(int id, String what) throws InterruptedException {
    long since = System.nanoTime();
    long sinceMs = System.currentTimeMillis();
    kafka.kill(id);
    long gap =
        options.minGap().toMillis()
            + random.nextLong(options.maxGap().toMillis() - options.minGap().toMillis() + 1);
    pause(since, Duration.ofMillis(gap));
    kafka.restart(id);
    recovered(what + ", started again after " + Math.round(gap / 1000.0) + " s", since, sinceMs);
  }

  private boolean onMariaDb() {
    return options.db() == DatabaseKind.MARIADB;
  }

  /** The MariaDB faults have no cheap PostgreSQL twin yet: each is skipped with its reason. */
  private void skipMariaDbFaultsOnPostgres() {
    if (onMariaDb()) {
      return;
    }
    if (options.mariaDbRestart()) {
      skipped(
          "database restart skipped on PostgreSQL: the testkit's private PostgreSQL takes a new"
              + " port on every start, so the apps' JDBC URLs would not find it again");
    }
    if (options.binlogPurge()) {
      skipped(
          "binlog purge skipped on PostgreSQL: there is no binlog; the relay's replication slot"
              + " keeps the WAL it has not confirmed");
    }
  }

  private void skipped(String reason) {
    notes.add(reason);
    step.accept(reason);
  }

  private void purgeBinlogUnderStoppedRelay() throws Exception {
    long since = System.nanoTime();
    cluster.stop(Cluster.RELAY);
    pause(since, Duration.ofSeconds(5));
    String purged;
    try (Connection c = DriverManager.getConnection(stack.rootJdbcUrl());
        Statement s = c.createStatement()) {
      s.execute("FLUSH BINARY LOGS");
      try (ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
        rs.next();
        purged = rs.getString(1);
      }
      s.execute("PURGE BINARY LOGS TO '" + purged + "'");
    }
    cluster.start(Cluster.RELAY);
    recovered("binlog purged to " + purged + " under a stopped relay", since, -1);
  }

  /**
   * Starts the recovery probe of a fault that began at {@code since} on a probe thread; {@code
   * windowStartMs} (epoch millis, or -1) makes the fault a {@link Window} for the schedule check.
   */
  private void recovered(String what, long since, long windowStartMs) {
    notes.addAll(cluster.restartDead());
    step.accept(what);
    pending.add(probes.submit(() -> measure(what, since, windowStartMs)));
  }

  /** Probe thread. */
  private String measure(String what, long since, long windowStartMs) throws InterruptedException {
    double s = probe.await(since, PROBE_TIMEOUT);
    String line =
        s < 0
            ? what + ": NOT recovered within " + PROBE_TIMEOUT.toSeconds() + " s"
            : String.format("%s: recovered in %.1f s", what, s);
    double running = windowStartMs < 0 ? -1 : schedulers.await(since, PROBE_TIMEOUT);
    if (windowStartMs >= 0) {
      line +=
          running < 0
              ? "; the schedulers did not all run within " + PROBE_TIMEOUT.toSeconds() + " s"
              : String.format("; every scheduler running after %.1f s", running);
    }
    synchronized (this) {
      if (s < 0) {
        notes.add(line);
        s = PROBE_TIMEOUT.toSeconds();
      }
      maxRecovery = Math.max(maxRecovery, s);
      if (windowStartMs >= 0) {
        double end = Math.max(s, running < 0 ? PROBE_TIMEOUT.toSeconds() : running);
        windows.add(new Window(what, windowStartMs, windowStartMs + Math.round(end * 1000)));
      }
    }
    step.accept(line);
    return line;
  }

  /**
   * Chaos thread, after the last fault: waits for every recovery probe (each ends within {@link
   * #PROBE_TIMEOUT}) and keeps their lines in fault order.
   */
  public void awaitProbes() throws InterruptedException {
    for (Future<String> f : pending) {
      try {
        lines.add(f.get());
      } catch (ExecutionException e) {
        synchronized (this) {
          notes.add("a recovery probe failed: " + e.getCause());
        }
      }
    }
    pending.clear();
    probes.shutdown();
  }

  /** Main-code polling: waits until {@code duration} after {@code since}, minding crashes. */
  private void pause(long since, Duration duration) throws InterruptedException {
    long until = since + duration.toNanos();
    while (System.nanoTime() < until) {
      notes.addAll(cluster.restartDead());
      TimeUnit.MILLISECONDS.sleep(
          Math.min(500, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
    }
  }

  /** Rounds of a shuffled list of all apps: every app is killed once per round of five. */
  private String nextVictim() {
    if (round.isEmpty()) {
      round.addAll(cluster.names());
      for (int i = round.size() - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        round.set(i, round.set(j, round.get(i)));
      }
    }
    return round.remove(0);
  }

  /** The faults that stop schedule fires, once {@link #awaitProbes()} returned. */
  public synchronized List<Window> scheduleWindows() {
    return List.copyOf(windows);
  }

  public int kills() {
    return kills;
  }

  public synchronized double maxRecoveryS() {
    return maxRecovery;
  }

  public List<String> lines() {
    return lines;
  }
}
