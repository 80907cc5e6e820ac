package io.tasklane.relay.internal;

import io.tasklane.core.TopicAdmin;
import io.tasklane.core.UnsafeReplicationException;
import io.tasklane.core.tracing.Tracing;
import io.tasklane.relay.BinlogPositionLostException;
import io.tasklane.relay.RelayConfig;
import io.tasklane.relay.RelayException;
import io.tasklane.relay.RelayState;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay's life on one thread ({@code tasklane-relay}): wait for the leader lock, then run the
 * engine as leader ({@link LeaderTerm}) until leadership is lost or the relay closes; back off and
 * contend again after errors. A purged binlog position that re-reading the table did not fix ends
 * in {@link RelayState#FAILED}. Public only for {@code io.tasklane.relay.Relay}.
 */
public final class RelayRuntime implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RelayRuntime.class);

  private final RelayConfig config;
  private final Clock clock;
  private final RelayMetrics metrics;
  private final Jdbc jdbc;
  private final KafkaClients kafka;
  private final TopicGuard topicGuard;
  private final Tracing tracing;
  private final AtomicReference<RelayState> state = new AtomicReference<>(RelayState.STARTING);
  private final AtomicReference<String> lastError = new AtomicReference<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final CountDownLatch closedLatch = new CountDownLatch(1);
  private final Thread thread;
  private HttpEndpoints http;

  public RelayRuntime(RelayConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
    this.metrics = new RelayMetrics(clock, config.postgres());
    this.jdbc = new Jdbc(config);
    this.kafka = new KafkaClients(config);
    this.topicGuard = new TopicGuard(kafka, metrics, topicSpecs(config), config.replication());
    this.tracing = Tracing.fromEnvironment("io.tasklane.relay", "tasklane-relay");
    this.thread = new Thread(this::loop, "tasklane-relay");
  }

  /** Starts HTTP (if enabled) and the relay thread; returns at once. */
  public void start() {
    if (config.httpPort() >= 0) {
      http = HttpEndpoints.start(config, this);
    }
    LOG.info("starting relay {}", config);
    thread.start();
  }

  public RelayState state() {
    return state.get();
  }

  public String lastError() {
    return lastError.get();
  }

  public RelayMetrics metrics() {
    return metrics;
  }

  /** The bound HTTP address, or null when HTTP is disabled. */
  java.net.InetSocketAddress httpAddress() {
    return http == null ? null : http.address();
  }

  /** The bound HTTP port, or -1 when HTTP is disabled. */
  public int httpPort() {
    return http == null ? -1 : http.port();
  }

  boolean isClosed() {
    return closed.get();
  }

  void setState(RelayState s) {
    if (state.get() != RelayState.FAILED && state.getAndSet(s) != s) {
      LOG.info("relay {} is {}", config.name(), s.wireName());
    }
  }

  /** Waits up to {@code ms} or until closed; true when closed. */
  boolean pause(long ms) {
    try {
      return closedLatch.await(ms, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  private void loop() {
    long backoffMs = 1000;
    while (!closed.get()) {
      try (LeaderLock lock = LeaderLock.of(config, jdbc)) {
        setState(RelayState.STANDBY);
        if (!lock.acquire(closed::get)) {
          break;
        }
        metrics.leader.set(1);
        metrics.leaderships.increment();
        setState(RelayState.LEADER);
        ensureTopics();
        new LeaderTerm(config, clock, metrics, jdbc, kafka, this, lock).run();
        backoffMs = 1000;
      } catch (BinlogPositionLostException | UnsafeReplicationException e) {
        LOG.error("relay stopped: {}", e.getMessage(), e);
        lastError.set(e.getMessage());
        setState(RelayState.FAILED);
        break;
      } catch (Throwable t) {
        LOG.error("relay error, contending again in {} ms", backoffMs, t);
        lastError.set(String.valueOf(t));
        metrics.leader.set(0);
        metrics.streaming.set(0);
        if (pause(backoffMs)) {
          break;
        }
        backoffMs = Math.min(config.maxSendBackoff().toMillis(), backoffMs * 2);
      } finally {
        metrics.leader.set(0);
        metrics.streaming.set(0);
      }
    }
    if (state.get() != RelayState.FAILED) {
      setState(RelayState.STOPPED);
    }
  }

  private void ensureTopics() {
    try {
      topicGuard.ensureAll();
    } catch (UnsafeReplicationException e) {
      throw e; // refused: a single broker loss would lose rows the relay acknowledged
    } catch (RuntimeException e) {
      throw new RelayException("cannot ensure the relay's topics: " + e.getMessage(), e);
    }
  }

  /** The relay's topics, as wanted at start (see {@link TopicGuard}). */
  private static List<TopicAdmin.Spec> topicSpecs(RelayConfig config) {
    var t = config.topics();
    short rf = -1; // the relay's TopicReplication, resolved against the cluster at creation
    return List.of(
        new TopicAdmin.Spec(t.tasks(), config.tasksPartitions(), rf, Map.of()),
        new TopicAdmin.Spec(t.relayDlt(), 1, rf, Map.of()),
        new TopicAdmin.Spec(t.uniqueReleases(), config.tasksPartitions(), rf, Map.of()),
        new TopicAdmin.Spec(t.relayOffsets(), 1, rf, Map.of("cleanup.policy", "compact")),
        new TopicAdmin.Spec(
            t.relayHistory(), 1, rf, Map.of("retention.ms", "-1", "retention.bytes", "-1")));
  }

  TopicGuard topicGuard() {
    return topicGuard;
  }

  /** Spans of relayed rows (a no-op tracer unless tracing is configured, docs/tracing.md). */
  Tracing tracing() {
    return tracing;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      closedLatch.countDown();
      try {
        thread.join(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (http != null) {
        http.close();
      }
      tracing.close(); // after the relay thread: its last batch's spans are flushed
      setState(RelayState.STOPPED);
    }
  }
}
