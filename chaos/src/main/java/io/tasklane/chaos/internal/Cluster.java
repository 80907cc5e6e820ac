package io.tasklane.chaos.internal;

import io.tasklane.examples.launch.ExampleWorker;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.testkit.JavaProcess;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The apps of a chaos run as processes: one relay, two scheduler instances (one standby replica
 * each) and two workers. A restarted process keeps its name, log file and (scheduler) state dir.
 * Thread-safe (a shutdown hook may close it while the chaos thread runs).
 */
public final class Cluster implements AutoCloseable {
  public static final String RELAY = "relay";

  /**
   * Consumer-group session timeout of the schedulers and workers: a kill -9'd member's partitions
   * move after this long (Kafka's default of 45 s would dominate every recovery time).
   */
  static final String SESSION_TIMEOUT_MS = "10000";

  private final Map<String, Supplier<JavaProcess.Builder>> recipes = new LinkedHashMap<>();
  private final Map<String, JavaProcess> running = new LinkedHashMap<>();
  private final List<Integer> schedulerPorts;
  private final Map<Long, Long> deaths = new HashMap<>();
  private int unexpectedExits;
  private boolean closed;

  public Cluster(TasklaneApps apps, int schedulerPort1, int schedulerPort2) {
    schedulerPorts = List.of(schedulerPort1, schedulerPort2);
    recipes.put(RELAY, () -> small(apps.relay(RELAY)));
    recipes.put("scheduler-1", () -> scheduler(apps, "scheduler-1", schedulerPort1));
    recipes.put("scheduler-2", () -> scheduler(apps, "scheduler-2", schedulerPort2));
    recipes.put("worker-1", () -> worker(apps, "worker-1"));
    recipes.put("worker-2", () -> worker(apps, "worker-2"));
  }

  private static JavaProcess.Builder scheduler(TasklaneApps apps, String name, int port) {
    return small(apps.scheduler(name, port))
        .sysProp("tasklane.scheduler.num-standby-replicas", "1")
        .sysProp("tasklane.scheduler.limits." + Mix.LIMIT + ".rate", Mix.LIMIT_RATE + "/s")
        .sysProp("tasklane.scheduler.limits." + Mix.LIMIT + ".burst", "" + Mix.LIMIT_BURST)
        .sysProp("tasklane.scheduler.kafka.session.timeout.ms", SESSION_TIMEOUT_MS);
  }

  private static JavaProcess.Builder worker(TasklaneApps apps, String name) {
    return small(ExampleWorker.recipe(apps, name, false))
        .sysProp("tasklane.worker.kafka.session.timeout.ms", SESSION_TIMEOUT_MS);
  }

  /**
   * The apps run with the C1 compiler only: restarted every 5–15 s on 2 cores, C2's warm-up of
   * every new JVM cost more CPU than its faster code saved (docs/chaos.md, capacity).
   */
  static final String JIT = "-XX:TieredStopAtLevel=1";

  private static JavaProcess.Builder small(JavaProcess.Builder b) {
    return b.jvmArg(JIT);
  }

  public synchronized void startAll() {
    recipes.keySet().forEach(this::start);
  }

  /** The schedulers' HTTP ports ({@code /health}, {@code /prometheus}). */
  public List<Integer> schedulerPorts() {
    return schedulerPorts;
  }

  public List<String> names() {
    return new ArrayList<>(recipes.keySet());
  }

  public synchronized void start(String name) {
    if (closed) {
      throw new IllegalStateException("the cluster was closed (Ctrl-C?)");
    }
    running.put(name, recipes.get(name).get().start());
  }

  /** kill -9, then start it again at once (same name and state dir). */
  public synchronized void killAndRestart(String name) {
    JavaProcess p = running.get(name);
    p.kill9();
    died(p);
    start(name);
  }

  private void died(JavaProcess p) {
    deaths.put(p.pid(), ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()));
  }

  /**
   * When each process this cluster killed, stopped or found dead died, by pid: epoch microseconds
   * taken just after the kill (or the stop, or the moment the death was noticed), so no later than
   * the death.
   */
  public synchronized Map<Long, Long> deaths() {
    return new HashMap<>(deaths);
  }

  /** Graceful stop (SIGTERM, up to 30 s); {@link #start} brings it back. */
  public synchronized void stop(String name) {
    JavaProcess p = running.remove(name);
    if (p != null) {
      p.stop(Duration.ofSeconds(30));
      died(p);
    }
  }

  /** Restarts any process that exited without being told to; returns their names. */
  public synchronized List<String> restartDead() {
    List<String> dead = new ArrayList<>();
    for (Map.Entry<String, JavaProcess> e : new ArrayList<>(running.entrySet())) {
      if (!e.getValue().isAlive()) {
        dead.add(e.getKey() + " (" + e.getValue().logTail(3).replace('\n', ' ') + ")");
        unexpectedExits++;
        died(e.getValue());
        start(e.getKey());
      }
    }
    return dead;
  }

  public int unexpectedExits() {
    return unexpectedExits;
  }

  /** A process that died during start-up, with its log tail, or null. */
  public synchronized String deadOne() {
    for (Map.Entry<String, JavaProcess> e : running.entrySet()) {
      if (!e.getValue().isAlive()) {
        return e.getKey() + ":\n" + e.getValue().logTail(40);
      }
    }
    return null;
  }

  @Override
  public synchronized void close() {
    closed = true;
    for (JavaProcess p : running.values()) {
      try {
        p.close();
      } catch (RuntimeException e) {
        // keep stopping the others
      }
    }
    running.clear();
  }
}
