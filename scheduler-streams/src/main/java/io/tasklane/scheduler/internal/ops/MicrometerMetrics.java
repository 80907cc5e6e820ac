package io.tasklane.scheduler.internal.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.SchedulerMetrics;
import io.tasklane.scheduler.internal.lifecycle.TaskReads;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;

/**
 * Micrometer view of the scheduler: event counters, dispatch lateness and scan time timers, and
 * gauges of tasks by state and due-index size read from this instance's stores (interactive
 * queries, cached for a second).
 */
public final class MicrometerMetrics implements SchedulerMetrics {
  private final MeterRegistry registry;
  private final Supplier<KafkaStreams> streams;
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final Timer lateness;
  private final Timer roundTrip;
  private final Timer onTheWay;
  private final Timer scan;
  private volatile Map<String, Long> stateCounts = Map.of();
  private volatile long countsReadAt;
  private volatile Map<String, Long> laneTotals = Map.of();
  private volatile long lanesReadAt;

  public MicrometerMetrics(MeterRegistry registry, Supplier<KafkaStreams> streams) {
    this.registry = registry;
    this.streams = streams;
    this.lateness =
        Timer.builder("tasklane.scheduler.dispatch.lateness")
            .description("dispatch time minus due time")
            .publishPercentiles(0.5, 0.99)
            .publishPercentileHistogram()
            .maximumExpectedValue(Duration.ofMinutes(10))
            .register(registry);
    this.roundTrip =
        Timer.builder("tasklane.scheduler.attempt.round.trip")
            .description("dispatch to result of an attempt, as the scheduler saw it")
            .publishPercentiles(0.5, 0.99)
            .register(registry);
    this.onTheWay =
        Timer.builder("tasklane.scheduler.attempt.on.the.way")
            .description(
                "dispatch to result of an attempt less the handler's run time: in the handler"
                    + " topic, in the worker's queue and the result's way back")
            .publishPercentiles(0.5, 0.99)
            .register(registry);
    this.scan =
        Timer.builder("tasklane.scheduler.punctuator.scan")
            .description("time of one due-index scan")
            .publishPercentiles(0.5, 0.99)
            .register(registry);
    for (TaskState s : TaskState.values()) {
      Gauge.builder("tasklane.scheduler.tasks", () -> stateCount(s.name()))
          .description("tasks by state in the stores of this instance")
          .tag("state", s.name())
          .register(registry);
    }
    for (String kind : List.of("lanes", "active", "blocked", "waiting")) {
      Gauge.builder("tasklane.scheduler.lanes", () -> lanes(kind))
          .description(
              "lanes of this instance (lanes, active: held by a task, blocked: held by a DEAD task)"
                  + " and the tasks waiting in them (waiting)")
          .tag("kind", kind)
          .register(registry);
    }
    Gauge.builder("tasklane.scheduler.due.index.size", this::indexSize)
        .description("approximate entries of the due-index of this instance")
        .register(registry);
  }

  /**
   * Publishes the Kafka Streams client's own metrics ({@code kafka.stream.thread.*} commit, poll,
   * process and punctuate latencies and ratios, consumer fetch and producer request latencies) with
   * the others; called once on the starting thread, before {@code s} starts.
   */
  public void bindStreams(KafkaStreams s) {
    new KafkaStreamsMetrics(s).bindTo(registry);
  }

  /**
   * Publishes how far this instance's standby replicas are behind ({@link StandbyLag}); called once
   * on the starting thread, with the listener set on the client before it starts.
   */
  public void bindStandbyLag(StandbyLag lag) {
    Gauge.builder("tasklane.scheduler.standby.lag", lag::records)
        .description("records the standby replicas of this instance are behind their changelogs")
        .register(registry);
    Gauge.builder("tasklane.scheduler.standby.partitions", lag::partitions)
        .description("changelog partitions the standby replicas of this instance are updating")
        .register(registry);
  }

  @Override
  public void count(SchedulerEvent event) {
    counters
        .computeIfAbsent(
            event.tag(),
            e -> Counter.builder("tasklane.scheduler.events").tag("event", e).register(registry))
        .increment();
  }

  @Override
  public void deadLettered(String source, String reason) {
    counters
        .computeIfAbsent(
            "dlt\0" + source + "\0" + reason,
            k ->
                Counter.builder("tasklane.scheduler.dead.letters")
                    .description("records written to <ns>.scheduler.dlt")
                    .tag("source", source)
                    .tag("reason", reason)
                    .register(registry))
        .increment();
  }

  @Override
  public void dispatched(long latenessMs) {
    lateness.record(latenessMs, TimeUnit.MILLISECONDS);
  }

  @Override
  public void returned(long roundTripMs, long handlerMs) {
    roundTrip.record(roundTripMs, TimeUnit.MILLISECONDS);
    onTheWay.record(Math.max(0, roundTripMs - handlerMs), TimeUnit.MILLISECONDS);
  }

  @Override
  public void scanned(long nanos, int entries) {
    scan.record(nanos, TimeUnit.NANOSECONDS);
  }

  private double stateCount(String state) {
    long now = System.currentTimeMillis();
    if (now - countsReadAt > 1_000) {
      countsReadAt = now;
      stateCounts = readCounts();
    }
    return stateCounts.getOrDefault(state, 0L);
  }

  private Map<String, Long> readCounts() {
    Map<String, Long> sum = new HashMap<>();
    try {
      TaskReads reads = reads();
      if (reads == null) {
        return sum;
      }
      // The composite stores read every local partition's store: the counts are summed.
      reads
          .countEntriesByState()
          .forEach((state, n) -> sum.merge(state.name(), n, Long::sum)); // STATE and STATE/handler
    } catch (RuntimeException e) {
      // Rebalancing or not yet running: report zeros rather than fail the scrape.
    }
    return sum;
  }

  private double lanes(String kind) {
    long now = System.currentTimeMillis();
    if (now - lanesReadAt > 5_000) {
      lanesReadAt = now;
      laneTotals = readLanes();
    }
    return laneTotals.getOrDefault(kind, 0L);
  }

  private Map<String, Long> readLanes() {
    Map<String, Long> sum = new HashMap<>();
    try {
      TaskReads reads = reads();
      if (reads == null) {
        return sum;
      }
      reads.forEachLane(
          null,
          r -> {
            sum.merge("lanes", 1L, Long::sum);
            sum.merge("active", r.holders().isEmpty() ? 0L : 1L, Long::sum);
            sum.merge("blocked", r.blocked() ? 1L : 0L, Long::sum);
            sum.merge("waiting", (long) r.waiting(), Long::sum);
          });
    } catch (RuntimeException e) {
      // Rebalancing or not yet running: report zeros rather than fail the scrape.
    }
    return sum;
  }

  private double indexSize() {
    try {
      KafkaStreams s = streams.get();
      if (s == null) {
        return 0;
      }
      return TaskReads.of(
              name ->
                  s.store(
                      StoreQueryParameters.fromNameAndType(
                          name, QueryableStoreTypes.keyValueStore())))
          .armedTimers();
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }

  /** The local stores of the running Kafka Streams client, or null before it runs. */
  private TaskReads reads() {
    KafkaStreams s = streams.get();
    return s == null
        ? null
        : TaskReads.of(
            name ->
                s.store(
                    StoreQueryParameters.fromNameAndType(
                        name, QueryableStoreTypes.keyValueStore())));
  }
}
