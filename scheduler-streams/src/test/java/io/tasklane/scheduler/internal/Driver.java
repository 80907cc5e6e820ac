package io.tasklane.scheduler.internal;

import io.tasklane.core.ControlRecord;
import io.tasklane.core.Dispatch;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.TaskTopicRecord;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.Engine;
import io.tasklane.scheduler.internal.lifecycle.EngineSettings;
import io.tasklane.scheduler.internal.lifecycle.StateCounts;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import io.tasklane.scheduler.internal.lifecycle.TaskMemory;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;
import io.tasklane.scheduler.internal.lifecycle.TaskSpans;
import io.tasklane.scheduler.internal.lifecycle.TimerShare;
import io.tasklane.scheduler.internal.ops.Alerts;
import io.tasklane.scheduler.internal.schedules.FireHistory;
import io.tasklane.scheduler.internal.schedules.FireLog;
import io.tasklane.scheduler.internal.schedules.ScheduleState;
import io.tasklane.scheduler.internal.topology.TopologyFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;

/** A TopologyTestDriver around the scheduler topology with a hand-driven wall clock. */
public final class Driver implements AutoCloseable {
  /** The tasks topic's partition count the engine is told; the driver's one stream task is 0. */
  public static final int PARTITIONS = 6;

  /** The task id of an unsharded fire {@code fireId} of schedule {@code name}, placed. */
  public static String taskOf(String name, String fireId) {
    return TaskIds.inPartitionOf(fireId, name, PARTITIONS);
  }

  public static final long T0 = 1_800_000_000_000L;
  public static final String HANDLER = "mail.send";

  public final Topics topics = new Topics("t");
  public final KnownTopics known = new KnownTopics();
  public final CountingMetrics metrics = new CountingMetrics();

  /** The handlers an operator paused (read by the dispatcher on the stream thread). */
  public final java.util.Set<String> paused = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** Limits per concurrency key, by handler (none: unlimited). */
  /** Turns per round by key prefix, for every handler ({@code handlers.<name>.weights}). */
  public final java.util.Map<String, Integer> weights = new java.util.HashMap<>();

  public final java.util.Map<String, Integer> maxPerKey =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The handlers whose DEAD tasks skip their ordered lane (else they block it). */
  public final java.util.Set<String> skipDead = java.util.concurrent.ConcurrentHashMap.newKeySet();

  public final TestWorkers workers = new TestWorkers();

  /** Rate limits by key: a limit's name, or {@code handler/} and a handler's name. */
  public final java.util.Map<String, io.tasklane.scheduler.RateLimit> limits =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** How each stream task opened forgets what it keeps in memory ({@link #reopen}). */
  private final java.util.Map<org.apache.kafka.streams.processor.TaskId, Runnable> reopens =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The engine's nano clock ({@link TimerShare}): each reading moves it on by {@link #nanoStep}, so
   * a test makes every timer fired cost that much of a tick's share (0: timers cost nothing).
   */
  public long nanos;

  public long nanoStep;
  final EngineSettings settings;
  public final Engine engine;
  public final TopologyTestDriver driver;
  public final TestInputTopic<String, byte[]> tasks;
  public final TestInputTopic<String, byte[]> results;
  public final TestInputTopic<String, byte[]> control;
  final TestOutputTopic<String, byte[]> controlOut;
  public final TestInputTopic<String, byte[]> dependencies;
  public final TestOutputTopic<String, byte[]> dependenciesOut;
  public long now = T0;

  public Driver(Path stateDir) {
    this(stateDir, 1_000);
  }

  public Driver(Path stateDir, int scanBound) {
    this(stateDir, scanBound, 1_000);
  }

  public Driver(Path stateDir, int scanBound, int maxDispatched) {
    this(stateDir, scanBound, maxDispatched, true);
  }

  public Driver(Path stateDir, int scanBound, int maxDispatched, boolean healTimers) {
    this(
        stateDir,
        scanBound,
        maxDispatched,
        healTimers,
        EngineSettings.DEFAULT_MAX_WAITERS_PER_TASK);
  }

  public Driver(
      Path stateDir, int scanBound, int maxDispatched, boolean healTimers, int maxWaiters) {
    this(
        stateDir,
        scanBound,
        maxDispatched,
        healTimers,
        maxWaiters,
        new TaskMemory.Shared(),
        Duration.ZERO);
  }

  /** A driver whose {@code ALLOW} schedules make each fire {@code lead} ahead of its instant. */
  public static Driver withScheduleLead(Path stateDir, Duration lead) {
    return new Driver(
        stateDir,
        1_000,
        1_000,
        true,
        EngineSettings.DEFAULT_MAX_WAITERS_PER_TASK,
        new TaskMemory.Shared(),
        lead);
  }

  /** A driver whose transitions raise {@code alerts}. */
  public Driver(Path stateDir, Alerts alerts) {
    this(
        stateDir,
        1000,
        1000,
        true,
        EngineSettings.DEFAULT_MAX_WAITERS_PER_TASK,
        new TaskMemory.Shared(alerts),
        Duration.ZERO);
  }

  /** A driver whose handlers' windows of attempts out are sized from their results. */
  public static Driver withAdaptiveWindow(Path stateDir, int maxDispatched) {
    return new Driver(
        stateDir,
        1_000,
        maxDispatched,
        true,
        EngineSettings.DEFAULT_MAX_WAITERS_PER_TASK,
        new TaskMemory.Shared(),
        Duration.ZERO,
        true);
  }

  private Driver(
      Path stateDir,
      int scanBound,
      int maxDispatched,
      boolean healTimers,
      int maxWaiters,
      TaskMemory.Shared memories,
      Duration scheduleLead) {
    this(stateDir, scanBound, maxDispatched, healTimers, maxWaiters, memories, scheduleLead, false);
  }

  private Driver(
      Path stateDir,
      int scanBound,
      int maxDispatched,
      boolean healTimers,
      int maxWaiters,
      TaskMemory.Shared memories,
      Duration scheduleLead,
      boolean adaptiveWindow) {
    settings =
        EngineSettings.builder()
            .punctuationInterval(Duration.ofMillis(100))
            .scanBound(scanBound)
            .retentionMs(Duration.ofDays(7).toMillis())
            .timeoutGraceMs(10_000)
            .snoozeCap(3)
            .noHandlerRecheckMs(1_000)
            .maxDispatched(maxDispatched)
            .adaptiveWindow(adaptiveWindow)
            .partitions(PARTITIONS)
            .healTimers(healTimers)
            .maxWaitersPerTask(maxWaiters)
            .scheduleLead(scheduleLead)
            .build();
    known.topics.add(topics.handler(HANDLER));
    known.topics.add(topics.handlerDlt(HANDLER));
    memories.onOpened(reopens::put);
    engine =
        new Engine(
            topics,
            settings,
            known,
            metrics,
            FixedRandom::new,
            memories,
            workers,
            new TaskSpans(io.tasklane.core.tracing.Tracing.off()),
            new io.tasklane.scheduler.internal.lifecycle.HandlerControls() {
              @Override
              public boolean paused(String handler) {
                return paused.contains(handler);
              }

              @Override
              public int maxPerKey(String handler) {
                return maxPerKey.getOrDefault(handler, UNLIMITED);
              }

              @Override
              public int weight(String handler, String key) {
                return new io.tasklane.scheduler.HandlerDefaults(null, null, weights).weight(key);
              }

              @Override
              public io.tasklane.scheduler.internal.lifecycle.RateSpacing rate(String limit) {
                io.tasklane.scheduler.RateLimit l = limits.get(limit);
                return l == null
                    ? null
                    : new io.tasklane.scheduler.internal.lifecycle.RateSpacing(
                        l.intervalMicros(), l.burst());
              }

              @Override
              public boolean handlerLimited(String handler) {
                return limits.containsKey("handler/" + handler);
              }

              @Override
              public io.tasklane.scheduler.internal.lifecycle.LanePolicy onDead(String handler) {
                return skipDead.contains(handler)
                    ? io.tasklane.scheduler.internal.lifecycle.LanePolicy.SKIP
                    : io.tasklane.scheduler.internal.lifecycle.LanePolicy.BLOCK;
              }
            },
            () -> nanos += nanoStep);
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "scheduler-test");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    driver = new TopologyTestDriver(TopologyFactory.build(engine), p, Instant.ofEpochMilli(T0));
    StringSerializer s = new StringSerializer();
    ByteArraySerializer b = new ByteArraySerializer();
    tasks = driver.createInputTopic(topics.tasks(), s, b);
    results = driver.createInputTopic(topics.results(), s, b);
    control = driver.createInputTopic(topics.control(), s, b);
    controlOut =
        driver.createOutputTopic(
            topics.control(), new StringDeserializer(), new ByteArrayDeserializer());
    dependencies = driver.createInputTopic(topics.dependencies(), s, b);
    dependenciesOut =
        driver.createOutputTopic(
            topics.dependencies(), new StringDeserializer(), new ByteArrayDeserializer());
  }

  public static TaskEnvelope task(long dueAt) {
    return task(dueAt, 3, RetryPolicy.fixed(Duration.ofSeconds(10)), List.of());
  }

  public static TaskEnvelope task(
      long dueAt, int maxAttempts, RetryPolicy backoff, List<String> deps) {
    return task(HANDLER, dueAt, maxAttempts, backoff, deps);
  }

  public static TaskEnvelope task(
      String handler, long dueAt, int maxAttempts, RetryPolicy backoff, List<String> deps) {
    return TaskEnvelope.builder()
        .id(UUID.randomUUID().toString())
        .handler(handler)
        .payload(WireCodec.readTree("{\"to\":\"a@b.c\"}"))
        .dueAt(dueAt)
        .maxAttempts(maxAttempts)
        .timeoutMs(5_000)
        .backoff(backoff)
        .dependsOn(deps)
        .createdAt(T0)
        .build();
  }

  public void send(TaskEnvelope task) {
    tasks.pipeInput(
        new TestRecord<>(task.routingKey(), WireCodec.encode(task), Instant.ofEpochMilli(now)));
  }

  public void sendControl(String key, ControlRecord command) {
    control.pipeInput(new TestRecord<>(key, WireCodec.encode(command), Instant.ofEpochMilli(now)));
  }

  /** A record of the scheduler's dependency protocol, piped into {@code dependencies}. */
  public void sendDependency(String key, ControlRecord command) {
    dependencies.pipeInput(
        new TestRecord<>(key, WireCodec.encode(command), Instant.ofEpochMilli(now)));
  }

  /** A result keyed by its task id, {@link #asSent as a worker sends it}. */
  public void sendResult(TaskResult result) {
    results.pipeInput(
        new TestRecord<>(result.id(), WireCodec.encode(asSent(result)), Instant.ofEpochMilli(now)));
  }

  /**
   * A result for {@code dispatch}, keyed by its routing key, {@link #asSent as a worker sends it}.
   */
  public void sendResult(Dispatch dispatch, TaskResult result) {
    results.pipeInput(
        new TestRecord<>(
            dispatch.routingKey(), WireCodec.encode(asSent(result)), Instant.ofEpochMilli(now)));
  }

  /** A result exactly as given (a forged one), keyed by {@code key}. */
  public void sendResultAsIs(String key, TaskResult result) {
    results.pipeInput(new TestRecord<>(key, WireCodec.encode(result), Instant.ofEpochMilli(now)));
  }

  /**
   * {@code r} as the worker that ran the task's current dispatch sends it: bound to that dispatch's
   * handler and nonce (read from the store) when it names neither and answers the current attempt;
   * otherwise as given (a result for another attempt or an unknown task is fenced before its
   * binding is looked at).
   */
  TaskResult asSent(TaskResult r) {
    if (r.nonce() != null || r.handler() != null || r.id() == null) {
      return r;
    }
    TaskRecord rec = record(r.id());
    if (rec == null || rec.task() == null || rec.attempt() != r.attempt()) {
      return r;
    }
    return new TaskResult(
        r.v(),
        r.id(),
        r.attempt(),
        r.outcome(),
        r.error(),
        r.retryAfterMs(),
        r.startedAt(),
        r.finishedAt(),
        r.worker(),
        rec.task().handler(),
        rec.nonce());
  }

  /** Pipes a record of {@code <ns>.tasks} (a task, a schedule, an unschedule) under {@code key}. */
  public void send(String key, TaskTopicRecord r) {
    tasks.pipeInput(new TestRecord<>(key, WireCodec.encode(r), Instant.ofEpochMilli(now)));
  }

  /** Runs the scheduler in 1 s ticks up to {@code t}. */
  public void runTo(long t) {
    while (now + 1_000 <= t) {
      advance(1_000);
    }
    advanceTo(t);
  }

  public void advanceTo(long t) {
    driver.advanceWallClockTime(Duration.ofMillis(t - now));
    now = t;
  }

  public void advance(long ms) {
    advanceTo(now + ms);
  }

  public List<Dispatch> dispatches() {
    return dispatches(HANDLER);
  }

  public List<Dispatch> dispatches(String handler) {
    return read(topics.handler(handler)).stream()
        .map(r -> WireCodec.decodeDispatch(r.value()))
        .toList();
  }

  public List<TestRecord<String, byte[]>> read(String topic) {
    TestOutputTopic<String, byte[]> out =
        driver.createOutputTopic(topic, new StringDeserializer(), new ByteArrayDeserializer());
    return out.readRecordsToList();
  }

  /**
   * Feeds the emitted control records back in, each to the topic it was written to: {@code control}
   * (a schedule's overlap cancel), then {@code dependencies} (the dependency protocol); returns how
   * many.
   */
  public int loopControl() {
    return loop(controlOut, control) + loop(dependenciesOut, dependencies);
  }

  private int loop(TestOutputTopic<String, byte[]> out, TestInputTopic<String, byte[]> in) {
    List<TestRecord<String, byte[]>> emitted = new ArrayList<>(out.readRecordsToList());
    for (TestRecord<String, byte[]> r : emitted) {
      in.pipeInput(new TestRecord<>(r.key(), r.value(), Instant.ofEpochMilli(now)));
    }
    return emitted.size();
  }

  public TaskRecord record(String id) {
    KeyValueStore<String, TaskRecord> store = driver.getKeyValueStore(Stores.TASKS);
    return store.get(id);
  }

  /** The tasks in {@code state}, as the per-state gauge counts them: the sum of its counts. */
  public long count(String state) {
    KeyValueStore<String, Long> store = driver.getKeyValueStore(Stores.STATE_COUNTS);
    long n = 0;
    try (var it = store.all()) {
      while (it.hasNext()) {
        var kv = it.next();
        TaskState s = StateCounts.stateOf(kv.key);
        if (s != null && s.name().equals(state)) {
          n += kv.value;
        }
      }
    }
    return n;
  }

  public long indexSize() {
    KeyValueStore<?, ?> store = driver.getKeyValueStore(Stores.DUE_INDEX);
    long n = 0;
    try (var it = store.all()) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  @Override
  public void close() {
    driver.close();
  }

  /** Schedule {@code name} with its whole fire history, as the status read shows it; or null. */
  public ScheduleState schedule(String name) {
    KeyValueStore<String, ScheduleState> store = driver.getKeyValueStore(Stores.SCHEDULES);
    ScheduleState s = store.get(name);
    KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]> log =
        driver.getKeyValueStore(Stores.SCHEDULE_FIRES);
    return s == null ? null : FireLog.withHistory(log, name, s, FireHistory.KEEP);
  }

  /**
   * Makes stream task {@code task} derive what it keeps in memory from its stores again, as it does
   * when it reopens after a crash, a move or a restart (its stores stay as they are).
   */
  public void reopen(org.apache.kafka.streams.processor.TaskId task) {
    Runnable forget = reopens.get(task);
    if (forget == null) {
      throw new IllegalStateException("stream task " + task + " has not opened");
    }
    forget.run();
  }
}
