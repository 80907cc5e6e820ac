package io.tasklane.scheduler.internal.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tasklane.scheduler.AlertConfig;
import io.tasklane.scheduler.internal.lifecycle.AlertSignals;
import io.tasklane.scheduler.internal.lifecycle.HandlerWorkers;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Raises alerts and groups them: occurrences of one rule and key within the group window are one
 * group; its first occurrence is handed to the {@link Sink} at once, the others are counted and
 * handed over as one summary when the window ends ({@link #tick}, or the next occurrence after it).
 * So 10,000 tasks going DEAD within a window make two posts, not 10,000. Each occurrence is counted
 * in {@code tasklane.scheduler.alerts{rule}}; the first of a group and each summary are logged at
 * WARN. {@link #raise} is called on stream threads and never blocks (a map update and, for a first
 * occurrence, a bounded-queue offer); {@link #tick} runs on the delivery thread. Thread-safe.
 */
public final class Alerts implements AlertSignals {
  private static final Logger LOG = LoggerFactory.getLogger(Alerts.class);

  /** How many groups {@link #recent} keeps. */
  public static final int RECENT = 200;

  /** Where a first occurrence or a summary goes: the webhook queue. Must not block. */
  public interface Sink {
    /** Hands {@code payload} over for delivery; {@code group} is told when it is sent. */
    void offer(Map<String, Object> payload, AlertGroup group);
  }

  /** Alerts that go nowhere: rules off. */
  static final Alerts OFF = new Alerts(AlertConfig.NONE, Clock.systemUTC(), null, null);

  /** The rule of a task going DEAD, keyed by its handler. */
  static final String DEAD = "dead";

  /** The rule of a dispatch while the handler has no live worker, keyed by the handler. */
  static final String NO_WORKER = "no-worker";

  /** The rule of a task admitted long after its outbox insert, keyed {@code relay}. */
  static final String RELAY_LAG = "relay-lag";

  /** The rule of a task not dispatched within its wait timeout, keyed by its handler. */
  static final String WAIT_TIMEOUT = "wait-timeout";

  /** The rule of a handler's queued tasks above the threshold for a while, keyed by handler. */
  static final String BACKLOG = "backlog";

  private final AlertConfig config;
  private final HandlerWorkers workers;
  private final long windowMs;
  private final Clock clock;
  private final MeterRegistry registry;
  private final Sink sink;
  private final Map<String, AlertGroup> open = new ConcurrentHashMap<>();
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final Map<String, Counter> waitTimeouts = new ConcurrentHashMap<>();
  private final ArrayDeque<AlertGroup> recent = new ArrayDeque<>();
  private final BacklogRule backlog = new BacklogRule();
  private final RelayWatch relay;

  public Alerts(AlertConfig config, Clock clock, MeterRegistry registry, Sink sink) {
    this(config, clock, registry, sink, HandlerWorkers.UNKNOWN);
  }

  /** Alerts whose {@code no-worker} rule asks {@code workers} (a cache that never blocks). */
  public Alerts(
      AlertConfig config, Clock clock, MeterRegistry registry, Sink sink, HandlerWorkers workers) {
    this.workers = workers;
    this.config = config;
    this.windowMs = config.groupWindow().toMillis();
    this.clock = clock;
    this.registry = registry;
    this.sink = sink;
    this.relay = new RelayWatch(clock);
  }

  /** The admissions this instance saw, for {@code GET /api/relay}. */
  public RelayWatch relay() {
    return relay;
  }

  /** Task {@code id} of {@code handler} went DEAD: the {@code dead} rule, if on for the handler. */
  @Override
  public void dead(String handler, String id, String reason) {
    if (sink != null && config.deadAlerts(handler)) {
      raise(DEAD, handler, "task " + id + " of handler " + handler + " is DEAD: " + reason);
    }
  }

  /**
   * Task {@code id} of {@code handler} was dispatched: the {@code no-worker} rule when the
   * handler's consumer group is known to have no live member.
   */
  @Override
  public void dispatched(String handler, String id) {
    if (sink != null
        && config.noWorkerAlerts(handler)
        && workers.liveConsumers(handler).orElse(-1) == 0) {
      raise(
          NO_WORKER,
          handler,
          "task "
              + id
              + " of handler "
              + handler
              + " was dispatched but the handler has no live"
              + " worker");
    }
  }

  /**
   * Task {@code id} of {@code handler} was not dispatched within its wait timeout of {@code waitMs}
   * from its due time: counted in {@code tasklane_scheduler_wait_timeouts_total{handler}} and
   * raised as {@code wait-timeout} (on for every task that has a wait timeout). On the stream
   * thread of the task's partition.
   */
  @Override
  public void waitTimedOut(String handler, String id, long waitMs) {
    if (registry != null) {
      waitTimeouts
          .computeIfAbsent(
              handler,
              h ->
                  Counter.builder("tasklane.scheduler.wait.timeouts")
                      .description("tasks not dispatched within their wait timeout, by handler")
                      .tag("handler", h)
                      .register(registry))
          .increment();
    }
    raise(
        WAIT_TIMEOUT,
        handler,
        "task "
            + id
            + " of handler "
            + handler
            + " was not started within its wait timeout of "
            + waitMs
            + " ms from its due time; it keeps waiting");
  }

  /**
   * Task {@code id} was admitted {@code lagMs} after its {@code createdAt}: the {@code relay-lag}
   * rule when that is above the configured bound.
   */
  @Override
  public void admitted(String id, long lagMs) {
    relay.admitted(lagMs);
    if (sink != null && config.relayLag() != null && lagMs > config.relayLag().toMillis()) {
      raise(
          RELAY_LAG,
          "relay",
          "task "
              + id
              + " was admitted "
              + lagMs
              + " ms after its outbox insert (bound "
              + config.relayLag().toMillis()
              + " ms)");
    }
  }

  /**
   * The handlers' queued counts of one stream task (about once a second, its stream thread); null
   * when the task closed.
   */
  @Override
  public void queued(Object streamTask, Map<String, Integer> queued) {
    if (sink == null || config.backlog() == null) {
      return;
    }
    backlog.queued(streamTask, queued);
  }

  /**
   * One occurrence of {@code rule} for {@code key} (a handler, ...), described by {@code summary}.
   */
  void raise(String rule, String key, String summary) {
    if (sink == null) {
      return;
    }
    long now = clock.millis();
    counter(rule).increment();
    open.compute(
        rule + "\0" + key,
        (k, g) -> {
          if (g != null && now < g.windowStart + windowMs) {
            g.occurred(now, summary);
            return g;
          }
          if (g != null) {
            flush(g);
          }
          AlertGroup next = new AlertGroup(rule, key, now, summary);
          remember(next);
          LOG.warn("alert {} {}: {}", rule, key, summary);
          sink.offer(next.payload("first", 1), next);
          return next;
        });
  }

  /**
   * Raises {@code backlog} for every handler above the threshold for the sustained time, then
   * closes the groups whose window ended, handing over their summaries. Delivery thread.
   */
  void tick() {
    long now = clock.millis();
    if (sink != null && config.backlog() != null) {
      backlog.check(now, config.backlog(), (handler, summary) -> raise(BACKLOG, handler, summary));
    }
    for (String k : List.copyOf(open.keySet())) {
      open.computeIfPresent(
          k,
          (key, g) -> {
            if (now < g.windowStart + windowMs) {
              return g;
            }
            flush(g);
            return null;
          });
    }
  }

  /** The most recent groups, newest first, as {@code GET /api/alerts} shows them. */
  public List<AlertGroup.Snapshot> recent() {
    List<AlertGroup> copy;
    synchronized (recent) {
      copy = new ArrayList<>(recent);
    }
    List<AlertGroup.Snapshot> out = new ArrayList<>();
    for (AlertGroup g : copy) {
      out.add(g.snapshot());
    }
    return out;
  }

  private void flush(AlertGroup g) {
    int unsent = g.takeUnsent();
    if (unsent > 0) {
      LOG.warn(
          "alert {} {}: {} more within {} ms; last: {}",
          g.rule,
          g.key,
          unsent,
          windowMs,
          g.summary());
      sink.offer(g.payload("summary", unsent), g);
    }
  }

  private void remember(AlertGroup g) {
    synchronized (recent) {
      recent.addFirst(g);
      while (recent.size() > RECENT) {
        recent.removeLast();
      }
    }
  }

  private Counter counter(String rule) {
    return counters.computeIfAbsent(
        rule,
        r ->
            Counter.builder("tasklane.scheduler.alerts")
                .description("alert occurrences by rule (before grouping)")
                .tag("rule", r)
                .register(registry));
  }
}
