package io.tasklane.relay.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL twin of {@link BinlogGuard}: while the relay leads, reads its replication slot
 * every interval on its own daemon thread ({@code tasklane-relay-slot-guard}, started and stopped
 * by the leader term), sets the slot gauges, and warns before {@code max_slot_wal_keep_size} is
 * reached (at the configured percentage; at once when the server already marks the slot {@code
 * unreserved} or {@code lost}). With an unlimited keep size it only reports. A warning is logged
 * when it starts and then at most every {@link #REPEAT_WARNING} (by the injected clock), so a slot
 * that stays high does not flood the log. The leader loop thread reads {@link #lost()}. No
 * transaction: each reading is one autocommit query.
 */
final class SlotGuard implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SlotGuard.class);
  static final Duration REPEAT_WARNING = Duration.ofMinutes(5);

  private final ReplicationSlot slot;
  private final RelayMetrics metrics;
  private final int warnPercent;
  private final AtomicReference<ReplicationSlot.State> last = new AtomicReference<>();
  private Instant lastWarning;
  private ScheduledExecutorService executor;

  /** {@code slot} stamps each reading with the relay's clock; warnings repeat by that time. */
  SlotGuard(ReplicationSlot slot, RelayMetrics metrics, int warnPercent) {
    this.slot = slot;
    this.metrics = metrics;
    this.warnPercent = warnPercent;
  }

  /** Starts reading every {@code interval} on the guard's thread; returns at once. */
  void start(Duration interval) {
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "tasklane-relay-slot-guard");
              t.setDaemon(true);
              return t;
            });
    executor.scheduleWithFixedDelay(
        this::checkQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** True when the last reading found the slot invalidated ({@code wal_status = 'lost'}). */
  boolean lost() {
    ReplicationSlot.State s = last.get();
    return s != null && s.lost();
  }

  private void checkQuietly() {
    try {
      check();
    } catch (Throwable t) {
      LOG.warn("slot guard: cannot read replication slot {}: {}", slot.name(), t.toString());
    }
  }

  /** One reading: gauges, warning. Package-private for tests; the guard's thread otherwise. */
  ReplicationSlot.State check() throws Exception {
    ReplicationSlot.State s = slot.read();
    last.set(s);
    metrics.slotRetainedWalBytes.set(s.retainedBytes());
    metrics.slotSafeWalSizeBytes.set(s.safeWalSizeBytes());
    metrics.slotKeepSizeBytes.set(s.keepSizeBytes());
    metrics.slotUsedRatio.set(s.usedRatio());
    String warning = warning(s);
    metrics.slotWarning.set(warning == null ? 0 : 1);
    if (warning == null) {
      lastWarning = null;
    } else if (lastWarning == null || !s.at().isBefore(lastWarning.plus(REPEAT_WARNING))) {
      lastWarning = s.at();
      LOG.warn("slot guard: replication slot {} {}", slot.name(), warning);
    }
    return s;
  }

  /** Why {@code s} needs an operator, or null. */
  String warning(ReplicationSlot.State s) {
    if (!s.exists()) {
      return null; // before the connector creates it; a slot dropped while away is recovered
    }
    if (s.lost()) {
      return "was invalidated (wal_status lost): the server removed WAL it still needed";
    }
    if ("unreserved".equals(s.walStatus())) {
      return String.format(
          "retains %d bytes of WAL, beyond max_slot_wal_keep_size (%d bytes); the next checkpoint"
              + " invalidates it unless the relay catches up",
          s.retainedBytes(), s.keepSizeBytes());
    }
    double ratio = s.usedRatio();
    if (ratio >= warnPercent / 100.0) {
      return String.format(
          "retains %d bytes of WAL, %.0f %% of max_slot_wal_keep_size (%d bytes, warning at %d %%);"
              + " %d bytes more and the server invalidates it",
          s.retainedBytes(),
          ratio * 100,
          s.keepSizeBytes(),
          warnPercent,
          Math.max(0, s.safeWalSizeBytes()));
    }
    return null;
  }

  /** Stops the guard's thread (waits up to 10 s for a reading in progress). */
  @Override
  public void close() {
    if (executor != null) {
      executor.shutdownNow();
      try {
        executor.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
