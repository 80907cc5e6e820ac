package io.tasklane.bench.internal;

import io.tasklane.harness.DatabaseKind;
import io.tasklane.harness.TasklaneApps;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What one benchmark run does, made with {@link #builder(Path)}.
 *
 * @param home the Tasklane checkout
 * @param scenarios scenario names in run order
 * @param quick the short mode (for the record in results.json)
 * @param tasks N of throughput and peer
 * @param warmupTasks tasks run end to end before the first scenario, so that every JVM has compiled
 *     its hot paths before anything is timed (reported apart as {@code warmup_*}); 0 for none
 * @param latencyRate offered tasks/s of latency
 * @param latencySeconds duration of latency
 * @param pending far-future tasks pending during delay (P)
 * @param delayTasks tasks due during delay (M)
 * @param delayWindowSeconds the M tasks are due over this window
 * @param scalePending tasks the scale scenario admits
 * @param failoverRate offered tasks/s during failover
 * @param failoverSeconds duration of the failover load (the kill is at a third)
 * @param scaleoutRate offered tasks/s of each phase of scaleout
 * @param scaleoutSeconds duration of each phase of scaleout
 * @param schedules 1-second schedules of the schedules scenario's part (a), end to end; part (b)
 *     fires ten times as many through the scheduler alone ({@link ScheduleLoad})
 * @param scheduleSeconds how long parts (a) and (b) measure their fires
 * @param jfr record the apps with JFR (files next to the logs)
 * @param writeDocs regenerate docs/benchmarks.md and its charts
 * @param db the outbox database: MariaDB (every scenario) or PostgreSQL (throughput only; its
 *     figures carry the prefix {@code pg_} in results.json)
 * @param schedulerSettings settings of every scheduler the run starts, by key after {@code
 *     tasklane.scheduler.} (empty: the defaults); recorded in results.json
 * @param brokers Kafka brokers of the private stack: 1, or 3 (a KRaft cluster at Kafka's topic
 *     defaults; the apps then make their topics RF 3 / min ISR 2 by their own defaults, and the
 *     failover scenario measures broker faults instead of scheduler and worker kills)
 * @param brokerSettings broker settings of every node of a 3-broker stack (e.g. {@code
 *     broker.session.timeout.ms}); recorded in results.json
 * @param kafkaClientSettings Kafka client settings given to the relay, every scheduler and every
 *     worker ({@code tasklane.<app>.kafka.<key>}); recorded in results.json
 * @param lanesKeys ordering keys of the lanes scenario's part (a), 20 tasks each
 * @param lanesBacklog tasks of the one busy concurrency key of the lanes scenario's part (b)
 * @param prioritiesBacklog low-priority tasks of the priorities scenario's backlog
 */
public record BenchOptions(
    Path home,
    List<String> scenarios,
    boolean quick,
    int tasks,
    int warmupTasks,
    int latencyRate,
    int latencySeconds,
    long pending,
    int delayTasks,
    int delayWindowSeconds,
    long scalePending,
    int failoverRate,
    int failoverSeconds,
    int scaleoutRate,
    int scaleoutSeconds,
    int schedules,
    int scheduleSeconds,
    boolean jfr,
    boolean writeDocs,
    DatabaseKind db,
    Map<String, String> schedulerSettings,
    int brokers,
    Map<String, String> brokerSettings,
    Map<String, String> kafkaClientSettings,
    int lanesKeys,
    int lanesBacklog,
    int prioritiesBacklog) {

  /**
   * Every scenario in the order a full run takes them; {@code schedules} last, as its part (b)
   * loads the scheduler to its limit and may leave a backlog that no later figure should include.
   */
  public static final List<String> ALL =
      List.of(
          "throughput",
          "peer",
          "latency",
          "scale",
          "delay",
          "failover",
          "api",
          "lanes",
          "priorities",
          "ratelimit",
          "batches",
          "schedules");

  /**
   * Every scenario a run may name: {@link #ALL} and {@code scaleout} (instances joining and leaving
   * under load, {@link ScaleOut}), which runs only when named.
   */
  public static final List<String> KNOWN =
      java.util.stream.Stream.concat(ALL.stream(), java.util.stream.Stream.of("scaleout")).toList();

  /** The scenarios a PostgreSQL run offers: the insert ceiling and the relay rate. */
  public static final List<String> POSTGRES_SCENARIOS = List.of("throughput");

  public BenchOptions {
    for (String s : scenarios) {
      if (!KNOWN.contains(s)) {
        throw new IllegalArgumentException("unknown scenario " + s + "; known: " + KNOWN);
      }
    }
    scenarios = KNOWN.stream().filter(scenarios::contains).toList();
    if (db == null) {
      throw new IllegalArgumentException("--db must be set (mariadb or postgres)");
    }
    if (db == DatabaseKind.POSTGRESQL && !POSTGRES_SCENARIOS.containsAll(scenarios)) {
      throw new IllegalArgumentException(
          "--db postgres runs "
              + POSTGRES_SCENARIOS
              + " only (the other scenarios measure the scheduler and db-scheduler on MariaDB); got"
              + " "
              + scenarios);
    }
    if (tasks < 1
        || latencyRate < 1
        || latencySeconds < 1
        || delayTasks < 1
        || delayWindowSeconds < 1
        || failoverRate < 1
        || failoverSeconds < 3
        || scaleoutRate < 1
        || scaleoutSeconds < 1
        || pending < 0
        || scalePending < 0
        || schedules < 0
        || scheduleSeconds < 1
        || lanesKeys < 1
        || lanesBacklog < 1
        || prioritiesBacklog < 1) {
      throw new IllegalArgumentException("counts, rates and durations must be positive");
    }
    if (brokers != 1 && brokers != 3) {
      throw new IllegalArgumentException("--brokers must be 1 or 3, got " + brokers);
    }
    if (brokers == 1 && !brokerSettings.isEmpty()) {
      throw new IllegalArgumentException("--broker-setting needs --brokers 3");
    }
    if (brokers > 1 && db == DatabaseKind.POSTGRESQL) {
      throw new IllegalArgumentException("--brokers 3 runs on MariaDB only");
    }
    brokerSettings = Map.copyOf(brokerSettings);
    kafkaClientSettings = Map.copyOf(kafkaClientSettings);
  }

  /**
   * The results.json key of figure {@code name} on this run's database: {@code name} on MariaDB,
   * {@code pg_<name>} on PostgreSQL.
   */
  public String key(String name) {
    return db == DatabaseKind.POSTGRESQL ? "pg_" + name : name;
  }

  public boolean has(String scenario) {
    return scenarios.contains(scenario);
  }

  /** A builder holding the full-mode sizes of every scenario; set what differs. */
  public static Builder builder(Path home) {
    return new Builder(home);
  }

  /**
   * Collects the settings of a {@link BenchOptions}; {@link #build()} validates them. Starts from
   * the full mode: every scenario, 200,000 tasks after 100,000 to warm up, 1,000 tasks/s for 60 s,
   * 1,000,000 pending, 10,000 due over 60 s, 1,000,000 admitted, failover at 500 tasks/s for 30 s,
   * 1,000 schedules measured for 60 s, lanes with 10,000 ordering keys and a backlog of 50,000
   * tasks, priorities with a backlog of 100,000 tasks, docs written, no JFR, MariaDB. Not
   * thread-safe.
   */
  public static final class Builder {
    private final Path home;
    private List<String> scenarios = ALL;
    private boolean quick;
    private int tasks = 200_000;
    private int warmupTasks = 300_000;
    private int latencyRate = 1000;
    private int latencySeconds = 60;
    private long pending = 1_000_000L;
    private int delayTasks = 10_000;
    private int delayWindowSeconds = 60;
    private long scalePending = 1_000_000L;
    private int failoverRate = 500;
    private int failoverSeconds = 30;
    private int scaleoutRate = 300;
    private int scaleoutSeconds = 30;
    private int schedules = 1_000;
    private int scheduleSeconds = 60;
    private boolean jfr;
    private boolean writeDocs = true;
    private DatabaseKind db = DatabaseKind.MARIADB;
    private Map<String, String> schedulerSettings = Map.of();
    private int brokers = 1;
    private Map<String, String> brokerSettings = Map.of();
    private Map<String, String> kafkaClientSettings = Map.of();
    private int lanesKeys = 10_000;
    private int lanesBacklog = 50_000;
    private int prioritiesBacklog = 100_000;

    private Builder(Path home) {
      this.home = home;
    }

    /** Scenario names; run in the order of {@link BenchOptions#ALL} whatever their order here. */
    public Builder scenarios(List<String> value) {
      this.scenarios = value;
      return this;
    }

    /** Marks the short mode in results.json; the sizes are set one by one. */
    public Builder quick(boolean value) {
      this.quick = value;
      return this;
    }

    /** N of throughput and peer. */
    public Builder tasks(int value) {
      this.tasks = value;
      return this;
    }

    /** Tasks run end to end before the first scenario (JIT warm-up); 0 for none. */
    public Builder warmupTasks(int value) {
      this.warmupTasks = value;
      return this;
    }

    /** Offered tasks/s and duration of latency. */
    public Builder latency(int rate, int seconds) {
      this.latencyRate = rate;
      this.latencySeconds = seconds;
      return this;
    }

    /** Far-future tasks pending during delay (P). */
    public Builder pending(long value) {
      this.pending = value;
      return this;
    }

    /** Tasks due during delay (M) and the window over which they are due. */
    public Builder delay(int tasksDue, int windowSeconds) {
      this.delayTasks = tasksDue;
      this.delayWindowSeconds = windowSeconds;
      return this;
    }

    /** Tasks the scale scenario admits. */
    public Builder scalePending(long value) {
      this.scalePending = value;
      return this;
    }

    /** Offered tasks/s and duration of the failover load. */
    public Builder failover(int rate, int seconds) {
      this.failoverRate = rate;
      this.failoverSeconds = seconds;
      return this;
    }

    /** Offered tasks/s and duration of each phase of the scaleout scenario. */
    public Builder scaleout(int rate, int seconds) {
      this.scaleoutRate = rate;
      this.scaleoutSeconds = seconds;
      return this;
    }

    /** 1-second schedules of part (a) (ten times as many in (b)) and how long each is measured. */
    public Builder schedules(int count, int seconds) {
      this.schedules = count;
      this.scheduleSeconds = seconds;
      return this;
    }

    /** Record the apps with JFR. */
    public Builder jfr(boolean value) {
      this.jfr = value;
      return this;
    }

    /** Regenerate docs/benchmarks.md and its charts. */
    public Builder writeDocs(boolean value) {
      this.writeDocs = value;
      return this;
    }

    /** The outbox database. */
    public Builder db(DatabaseKind value) {
      this.db = value;
      return this;
    }

    /**
     * Settings of every scheduler the run starts ({@code --scheduler-setting}).
     *
     * @throws IllegalArgumentException naming a key that is not a setting's name
     */
    public Builder schedulerSettings(Map<String, String> value) {
      TasklaneApps.checkSchedulerSettings(value);
      this.schedulerSettings = Map.copyOf(value);
      return this;
    }

    /** Brokers of the private stack: 1 or 3. */
    public Builder brokers(int value) {
      this.brokers = value;
      return this;
    }

    /** Broker settings of a 3-broker stack ({@code --broker-setting}). */
    public Builder brokerSettings(Map<String, String> value) {
      this.brokerSettings = Map.copyOf(value);
      return this;
    }

    /** Kafka client settings of the relay, the schedulers and the workers. */
    public Builder kafkaClientSettings(Map<String, String> value) {
      this.kafkaClientSettings = Map.copyOf(value);
      return this;
    }

    /** Ordering keys of lanes (a) and the busy key's backlog of lanes (b). */
    public Builder lanes(int keys, int backlog) {
      this.lanesKeys = keys;
      this.lanesBacklog = backlog;
      return this;
    }

    /** Low-priority tasks of the priorities scenario's backlog. */
    public Builder prioritiesBacklog(int value) {
      this.prioritiesBacklog = value;
      return this;
    }

    /** The validated options. */
    public BenchOptions build() {
      return new BenchOptions(
          home,
          scenarios,
          quick,
          tasks,
          warmupTasks,
          latencyRate,
          latencySeconds,
          pending,
          delayTasks,
          delayWindowSeconds,
          scalePending,
          failoverRate,
          failoverSeconds,
          scaleoutRate,
          scaleoutSeconds,
          schedules,
          scheduleSeconds,
          jfr,
          writeDocs,
          db,
          schedulerSettings,
          brokers,
          brokerSettings,
          kafkaClientSettings,
          lanesKeys,
          lanesBacklog,
          prioritiesBacklog);
    }
  }
}
