package io.tasklane.relay.internal;

import io.tasklane.core.TaskLimits;
import io.tasklane.relay.BinlogPositionLostException;
import io.tasklane.relay.RelayConfig;
import io.tasklane.relay.RelayException;
import io.tasklane.relay.RelayState;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One leadership term: check the stored binlog position (re-read the table if it was purged) or, on
 * PostgreSQL, the replication slot ({@link SlotRecovery}: re-read the table if the slot was lost or
 * dropped), run the engine, and while it runs watch the lock, readiness, purge and the binlog guard
 * (MariaDB and MySQL) or the slot guard (PostgreSQL, on its own thread). Returns when the lock is
 * lost or the relay closes; throws when the engine fails. Relay thread only.
 */
final class LeaderTerm {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderTerm.class);

  private final RelayConfig config;
  private final Clock clock;
  private final RelayMetrics metrics;
  private final Jdbc jdbc;
  private final KafkaClients kafka;
  private final RelayRuntime runtime;
  private final LeaderLock lock;
  private final StoredOffsets offsets;
  private final BinlogGuard guard;
  private final Purger purger;
  private final UniquePurger uniquePurger;
  private boolean uniquePurgeWarned;
  private final ReplicationSlot slot;
  private final SlotRecovery slotRecovery;
  private static final int MAX_SLOT_RECOVERIES_PER_TERM = 3;

  private final AtomicReference<Map<String, ?>> lastOffset = new AtomicReference<>();

  LeaderTerm(
      RelayConfig config,
      Clock clock,
      RelayMetrics metrics,
      Jdbc jdbc,
      KafkaClients kafka,
      RelayRuntime runtime,
      LeaderLock lock) {
    this.config = config;
    this.clock = clock;
    this.metrics = metrics;
    this.jdbc = jdbc;
    this.kafka = kafka;
    this.runtime = runtime;
    this.lock = lock;
    this.offsets = new StoredOffsets(kafka, config.topics().relayOffsets(), config.name());
    this.guard = new BinlogGuard(jdbc, metrics, config.binlogGuardMinFiles());
    this.purger =
        new Purger(
            jdbc,
            config.qualifiedTable(),
            config.purgeBatchSize(),
            config.retention(),
            clock,
            config.postgres());
    this.uniquePurger =
        new UniquePurger(jdbc, config.schema(), config.purgeBatchSize(), clock, config.postgres());
    this.slot =
        config.postgres()
            ? new ReplicationSlot(jdbc, config.slotName(), config.qualifiedTable(), clock)
            : null;
    this.slotRecovery =
        config.postgres()
            ? new SlotRecovery(slot, offsets, metrics, config.qualifiedTable())
            : null;
  }

  void run() throws Exception {
    String connectorClass = jdbc.connectorClass();
    boolean recovered =
        config.postgres() ? slotRecovery.recoverIfSlotLost() : recoverIfPositionLost();
    int slotRecoveries = 0;
    while (true) {
      Throwable failure = runEngine(connectorClass);
      if (failure == null) {
        return;
      }
      if (config.postgres()) {
        // A slot invalidated during the term: recover and start again (a few times per term; a
        // slot lost again at once means the relay cannot keep up with max_slot_wal_keep_size).
        if (++slotRecoveries <= MAX_SLOT_RECOVERIES_PER_TERM && slotRecovery.recoverIfSlotLost()) {
          continue;
        }
        throw new RelayException("the Debezium engine failed: " + failure.getMessage(), failure);
      }
      if (!looksLikeLostPosition(failure)) {
        throw new RelayException("the Debezium engine failed: " + failure.getMessage(), failure);
      }
      if (recovered) {
        throw new BinlogPositionLostException(
            "the binlog position is still unavailable after re-reading the outbox table: "
                + failure.getMessage(),
            failure);
      }
      LOG.warn(
          "the connector cannot resume from its binlog position ({}); re-reading the outbox table",
          failure.getMessage());
      offsets.read().ifPresent(this::forget);
      recovered = true;
    }
  }

  /** Runs the engine until lost leadership / close (null) or an engine failure (the error). */
  private Throwable runEngine(String connectorClass) throws Exception {
    AtomicBoolean stopping = new AtomicBoolean();
    var mapper = new RowMapper(config.table(), new TaskLimits(config.maxPayloadBytes()));
    var probe = new StreamingProbe(config.name());
    try (KafkaSender sender =
        new KafkaSender(kafka, metrics, config.maxSendBackoff(), runtime.topicGuard())) {
      var consumer =
          new BatchConsumer(
              mapper,
              sender,
              config.topics(),
              config.table(),
              metrics,
              clock,
              stopping::get,
              lastOffset::set,
              runtime.tracing());
      try (EngineRunner engine =
              new EngineRunner(DebeziumProps.of(config, connectorClass), consumer, stopping);
          SlotGuard slotGuard =
              config.postgres() ? new SlotGuard(slot, metrics, config.slotWarnPercent()) : null;
          UniqueReleases releases = new UniqueReleases(config, kafka, jdbc, clock, metrics)) {
        engine.start();
        if (slotGuard != null) {
          slotGuard.start(config.binlogGuardInterval());
        }
        long nextPurge = clock.millis() + config.purgeInterval().toMillis();
        long nextGuard = clock.millis();
        long lockCheckNanos = config.leaderCheckInterval().toNanos();
        long lastLockCheck = System.nanoTime() - lockCheckNanos;
        while (!runtime.isClosed()) {
          if (engine.completion().isDone()) {
            Throwable t = engine.completion().get();
            return t != null ? t : new RelayException("the Debezium engine stopped unexpectedly");
          }
          if (slotGuard != null && slotGuard.lost()) {
            LOG.warn("replication slot {} was invalidated: stopping the engine", config.slotName());
            return new RelayException("replication slot " + config.slotName() + " was lost");
          }
          if (System.nanoTime() - lastLockCheck >= lockCheckNanos) {
            if (!lock.stillHeld()) {
              LOG.warn("lost the leader lock {}: stopping the engine", config.lockName());
              return null;
            }
            lastLockCheck = System.nanoTime();
          }
          boolean streaming = probe.connected();
          metrics.streaming.set(streaming ? 1 : 0);
          runtime.setState(streaming ? RelayState.STREAMING : RelayState.LEADER);
          long now = clock.millis();
          if (!config.purgeInterval().isZero() && now >= nextPurge) {
            purge();
            nextPurge = now + config.purgeInterval().toMillis();
          }
          releases.poll();
          if (now >= nextGuard && !config.postgres()) {
            guard();
            nextGuard = now + config.binlogGuardInterval().toMillis();
          }
          runtime.pause(100);
        }
        return null;
      } finally {
        metrics.streaming.set(0);
      }
    }
  }

  /** Before the engine starts: if the stored position's binlog file is gone, forget the offset. */
  private boolean recoverIfPositionLost() throws Exception {
    Optional<StoredOffsets.Stored> stored = offsets.read();
    if (stored.isEmpty() || stored.get().file() == null) {
      LOG.info(
          "no stored offset for {}: the first start snapshots {}", config.name(), config.table());
      return false;
    }
    var s = stored.get();
    BinlogGuard.Assessment a = guard.check(s.file(), s.pos());
    if (!a.gone()) {
      LOG.info("resuming from stored binlog position {}:{}", s.file(), s.pos());
      return false;
    }
    LOG.warn(
        "binlog position {}:{} was purged from the server while the relay was away; re-reading every"
            + " row still in {} (unrelayed rows are all there: purge only deletes relayed rows),"
            + " then streaming from the current position",
        s.file(),
        s.pos(),
        config.table());
    forget(s);
    return true;
  }

  private void forget(StoredOffsets.Stored s) {
    try {
      offsets.forget(s);
      metrics.binlogRecoveries.increment();
    } catch (Exception e) {
      throw new RelayException(
          "cannot reset the relay's offset in " + config.topics().relayOffsets(), e);
    }
  }

  private void purge() {
    try {
      Purger.Result r = purger.purge(metrics.watermarkValue());
      metrics.purgeRuns.increment();
      metrics.purgedRows.increment(r.rows());
      if (r.rows() > 0) {
        LOG.info("purged {} relayed rows in {} statements", r.rows(), r.statements());
      }
    } catch (Exception e) {
      metrics.purgeErrors.increment();
      LOG.warn("purge failed: {}", e.toString());
    }
    purgeUniqueWindows();
  }

  /**
   * Deletes ended unique windows. A failure (the relay's user lacks DELETE on the table, say) is
   * logged as a warning once per term, then at debug: the outbox purge's metrics stay its own.
   */
  private void purgeUniqueWindows() {
    try {
      UniquePurger.Result r = uniquePurger.purge();
      if (r.rows() > 0) {
        LOG.info("purged {} ended unique windows in {} statements", r.rows(), r.statements());
      }
    } catch (Exception e) {
      if (!uniquePurgeWarned) {
        uniquePurgeWarned = true;
        LOG.warn(
            "purge of {} failed (grant the relay's user DELETE on it; warned once per term): {}",
            UniquePurger.TABLE,
            e.toString());
      } else {
        LOG.debug("purge of {} failed: {}", UniquePurger.TABLE, e.toString());
      }
    }
  }

  private void guard() {
    Map<String, ?> off = lastOffset.get();
    if (off == null || !(off.get("file") instanceof String file)) {
      return;
    }
    long pos = off.get("pos") instanceof Number n ? n.longValue() : 0;
    try {
      guard.check(file, pos);
    } catch (Exception e) {
      LOG.warn("binlog guard failed: {}", e.toString());
    }
  }

  static boolean looksLikeLostPosition(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      String m = String.valueOf(c.getMessage()).toLowerCase(Locale.ROOT);
      if (m.contains("no longer available")
          || m.contains("could not find gtid state")
          || m.contains("could not find first log file")
          || m.contains("purged binary logs")
          || m.contains("binlog truncation")
          || m.contains("1236")) {
        return true;
      }
    }
    return false;
  }
}
