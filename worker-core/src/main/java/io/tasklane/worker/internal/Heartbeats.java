package io.tasklane.worker.internal;

import io.tasklane.core.Wire;
import io.tasklane.core.WorkerHeartbeat;
import io.tasklane.worker.WorkerConfig;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes this worker's heartbeat ({@link WorkerHeartbeat}) to the compacted {@code <ns>.workers}
 * every {@code heartbeat-interval} from its own thread, {@code tasklane-worker-heartbeat} (it reads
 * the handlers' counters and never waits on a handler thread), and a tombstone on clean shutdown so
 * the worker leaves the registry at once. A heartbeat the broker refuses is logged and the next one
 * tries again.
 */
final class Heartbeats {
  private static final Logger LOG = LoggerFactory.getLogger(Heartbeats.class);

  /** What one handler's consumer reports. */
  interface Source {
    String name();

    int concurrency();

    int inPool();
  }

  private final WorkerConfig config;
  private final Publisher publisher;
  private final Clock clock;
  private final Supplier<List<? extends Source>> handlers;
  private final RunningAttempts attempts;
  private final String id;
  private final String host = hostName();
  private final long pid = ManagementFactory.getRuntimeMXBean().getPid();
  private final long startedAt;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "tasklane-worker-heartbeat");
            t.setDaemon(true);
            return t;
          });

  Heartbeats(
      WorkerConfig config,
      Publisher publisher,
      Clock clock,
      Supplier<List<? extends Source>> handlers,
      RunningAttempts attempts) {
    this.config = config;
    this.publisher = publisher;
    this.clock = clock;
    this.handlers = handlers;
    this.attempts = attempts;
    this.startedAt = clock.millis();
    this.id = config.workerName() + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** This worker process's id on {@code <ns>.workers}. */
  String id() {
    return id;
  }

  /** Start-up thread: the first heartbeat now, then every interval. */
  void start() {
    long every = config.heartbeatInterval().toMillis();
    thread.scheduleAtFixedRate(this::beat, 0, every, TimeUnit.MILLISECONDS);
  }

  /** The heartbeat as of now. */
  WorkerHeartbeat current() {
    Map<String, List<String>> running = attempts.byHandler();
    List<WorkerHeartbeat.HandlerBeat> beats = new ArrayList<>();
    for (Source h : handlers.get()) {
      beats.add(
          new WorkerHeartbeat.HandlerBeat(
              h.name(), h.concurrency(), h.inPool(), running.getOrDefault(h.name(), List.of())));
    }
    return new WorkerHeartbeat(
        Wire.VERSION,
        id,
        config.workerName(),
        host,
        pid,
        version(),
        startedAt,
        clock.millis(),
        config.heartbeatInterval().toMillis(),
        beats,
        true);
  }

  private void beat() {
    try {
      publisher.heartbeat(id, current());
    } catch (RuntimeException e) {
      LOG.warn("heartbeat of {} not published: {}", id, e.toString());
    }
  }

  /**
   * Shutdown thread, before the producer closes: stops the heartbeats and publishes the tombstone
   * (waiting up to {@code timeout} for its ack).
   */
  void stop(Duration timeout) {
    thread.shutdownNow();
    try {
      thread.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
      publisher.heartbeat(id, null).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("tombstone of {} not published: {}", id, e.toString());
    }
  }

  static String version() {
    String v = Heartbeats.class.getPackage().getImplementationVersion();
    return v == null ? "unknown" : v;
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (Exception e) {
      return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("unknown");
    }
  }
}
