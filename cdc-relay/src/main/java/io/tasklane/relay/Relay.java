package io.tasklane.relay;

import io.tasklane.relay.internal.RelayMetrics;
import io.tasklane.relay.internal.RelayRuntime;
import java.time.Clock;
import java.time.Duration;

/**
 * A running relay: contends for the database's leader lock and, as leader, streams committed outbox
 * inserts to {@code <ns>.tasks}. Start one per process with {@link #start}; several processes on
 * the same database elect one leader, the others stand by.
 *
 * <pre>{@code
 * try (Relay relay = Relay.start(RelayConfigLoader.load(args))) {
 *   relay.awaitStreaming(Duration.ofSeconds(60));
 *   ...
 * }
 * }</pre>
 *
 * <p>Thread-safety: every method may be called from any thread. The relay works on its own threads
 * ({@code tasklane-relay}, {@code tasklane-relay-engine}, {@code tasklane-relay-http}, and on
 * PostgreSQL {@code tasklane-relay-slot-guard}); it never joins the caller's transaction.
 */
public final class Relay implements AutoCloseable {
  private final RelayRuntime runtime;

  private Relay(RelayRuntime runtime) {
    this.runtime = runtime;
  }

  /** Starts a relay with the system clock; returns at once (see {@link #awaitStreaming}). */
  public static Relay start(RelayConfig config) {
    return start(config, Clock.systemUTC());
  }

  /**
   * Starts a relay.
   *
   * @param clock the time used for purge cut-offs, validation windows and metrics
   */
  public static Relay start(RelayConfig config, Clock clock) {
    RelayRuntime runtime = new RelayRuntime(config, clock);
    runtime.start();
    return new Relay(runtime);
  }

  public RelayState state() {
    return runtime.state();
  }

  /**
   * Blocks until the connector's binlog stream is connected (rows committed from now on are
   * relayed), the relay failed, or {@code timeout} passed.
   *
   * @return true when streaming
   */
  public boolean awaitStreaming(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      RelayState s = runtime.state();
      if (s == RelayState.STREAMING) {
        return true;
      }
      if (s == RelayState.FAILED || s == RelayState.STOPPED) {
        return false;
      }
      Thread.sleep(20);
    }
    return false;
  }

  /** Current counters and state. */
  public RelayStatus status() {
    RelayMetrics m = runtime.metrics();
    return new RelayStatus(
        runtime.state(),
        m.relayed(),
        m.deadLettered(),
        m.ignored(),
        m.purged(),
        m.watermarkValue(),
        m.binlogRecoveryCount(),
        runtime.lastError(),
        m.missingColumnNames(),
        m.missingTopicNames());
  }

  /** The Prometheus text of every relay metric. */
  public String metricsText() {
    return runtime.metrics().scrape();
  }

  /** The bound health/metrics port, or -1 when HTTP is disabled. */
  public int httpPort() {
    return runtime.httpPort();
  }

  /** Stops the engine (offsets of acknowledged records are kept), releases the lock. Blocks. */
  @Override
  public void close() {
    runtime.close();
  }
}
