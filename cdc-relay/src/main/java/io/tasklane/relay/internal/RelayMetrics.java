package io.tasklane.relay.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tasklane.core.outbox.OutboxKind;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The relay's Micrometer meters (rendered for Prometheus on {@code /metrics}). Thread-safe: the
 * engine thread counts, the leader loop sets gauges, HTTP threads read.
 */
public final class RelayMetrics {
  private final Clock clock;
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<OutboxKind, Counter> records = recordCounters();
  final Counter dlt = counter("tasklane.relay.dlt", null, null);
  final Counter updates = counter("tasklane.relay.ignored", "op", "update");
  final Counter deletes = counter("tasklane.relay.ignored", "op", "delete");
  final Counter sendRetries = counter("tasklane.relay.send.retries", null, null);
  final Counter snapshotRows = counter("tasklane.relay.snapshot.rows", null, null);
  final Counter purgedRows = counter("tasklane.relay.purge.deleted", null, null);
  final Counter purgeRuns = counter("tasklane.relay.purge.runs", null, null);
  final Counter purgeErrors = counter("tasklane.relay.purge.errors", null, null);
  final Counter binlogRecoveries = counter("tasklane.relay.binlog.recoveries", null, null);
  final Counter slotRecoveries;
  final Counter leaderships = counter("tasklane.relay.leaderships", null, null);
  final Counter topicRecreations = counter("tasklane.relay.topic.recreations", null, null);
  final Counter missingColumnRows = counter("tasklane.relay.missing.column.rows", null, null);
  final Counter batchRows = counter("tasklane.relay.batch.rows", null, null);
  final Counter uniqueReleased = counter("tasklane.relay.unique.released", null, null);
  final Counter uniqueReleaseErrors = counter("tasklane.relay.unique.release.errors", null, null);
  final Counter uniqueReleaseInvalid = counter("tasklane.relay.unique.release.invalid", null, null);
  final Timer enqueueToAck;
  final AtomicLong binlogLagMs = new AtomicLong();
  final AtomicLong lastOffsetAtMs = new AtomicLong(-1);
  final AtomicLong binlogFilesBefore = new AtomicLong(-1);
  final AtomicLong binlogBytesBehind = new AtomicLong(-1);
  final AtomicLong watermark = new AtomicLong();
  final AtomicLong leader = new AtomicLong();
  final AtomicLong streaming = new AtomicLong();
  final AtomicLong slotRetainedWalBytes = new AtomicLong(-1);
  final AtomicLong slotSafeWalSizeBytes = new AtomicLong(-1);
  final AtomicLong slotKeepSizeBytes = new AtomicLong(-1);
  final AtomicReference<Double> slotUsedRatio = new AtomicReference<>(-1.0);
  final AtomicLong slotWarning = new AtomicLong();
  private final boolean postgres;

  /** Contract columns the last inserted row lacked (the outbox table was altered), or none. */
  final AtomicReference<List<String>> missingColumns = new AtomicReference<>(List.of());

  /** Relay topics found missing at the last check (deleted while the relay ran), or none. */
  final AtomicReference<List<String>> missingTopics = new AtomicReference<>(List.of());

  /** The meters of a MariaDB/MySQL relay. */
  public RelayMetrics(Clock clock) {
    this(clock, false);
  }

  /**
   * @param postgres true for a PostgreSQL relay: adds the replication slot meters (a MariaDB/MySQL
   *     relay does not export them)
   */
  public RelayMetrics(Clock clock, boolean postgres) {
    this.clock = clock;
    this.postgres = postgres;
    slotRecoveries = postgres ? counter("tasklane.relay.slot.recoveries", null, null) : null;
    if (postgres) {
      slotGauges();
    }
    enqueueToAck =
        Timer.builder("tasklane.relay.enqueue.to.ack")
            .description("created_at of the row to the Kafka acknowledgement of its record")
            .publishPercentiles(0.5, 0.99)
            .register(registry);
    gauge(
        "tasklane.relay.binlog.lag.ms",
        "now minus the binlog timestamp of the last relayed row, at relay time (1 s resolution)",
        binlogLagMs);
    Gauge.builder("tasklane.relay.offset.age.ms", this, RelayMetrics::offsetAgeMs)
        .description("time since the relay last acknowledged a batch and advanced its offset")
        .register(registry);
    gauge(
        "tasklane.relay.binlog.files.before.offset",
        "binlog files the server keeps before the offset's file (0 = next purge loses it, -1 = gone/unknown)",
        binlogFilesBefore);
    gauge(
        "tasklane.relay.binlog.bytes.behind",
        "binlog bytes between the offset and the end of the binlog (-1 = unknown)",
        binlogBytesBehind);
    gauge("tasklane.relay.watermark", "highest outbox row id acknowledged by Kafka", watermark);
    gauge("tasklane.relay.leader", "1 while this instance holds the leader lock", leader);
    gauge("tasklane.relay.streaming", "1 while the binlog stream is connected", streaming);
    Gauge.builder("tasklane.relay.outbox.missing.columns", missingColumns, m -> m.get().size())
        .description("contract columns the last outbox row lacked (0 = the table is as expected)")
        .register(registry);
    Gauge.builder("tasklane.relay.missing.topics", missingTopics, m -> m.get().size())
        .description("relay topics found deleted at the last check (0 = all exist)")
        .register(registry);
  }

  private void slotGauges() {
    gauge(
        "tasklane.relay.slot.retained.wal.bytes",
        "WAL the server keeps for the relay's replication slot: current LSN - restart_lsn (-1 = unknown)",
        slotRetainedWalBytes);
    gauge(
        "tasklane.relay.slot.safe.wal.size.bytes",
        "WAL that can still be written before the server invalidates the slot (-1 = unlimited)",
        slotSafeWalSizeBytes);
    gauge(
        "tasklane.relay.slot.wal.keep.size.bytes",
        "the server's max_slot_wal_keep_size (-1 = unlimited)",
        slotKeepSizeBytes);
    Gauge.builder(
            "tasklane.relay.slot.wal.keep.size.used.ratio", slotUsedRatio, AtomicReference::get)
        .description("retained WAL / max_slot_wal_keep_size (-1 = unlimited or unknown)")
        .register(registry);
    gauge(
        "tasklane.relay.slot.warning",
        "1 while the slot guard warns (keep size nearly used, unreserved or lost)",
        slotWarning);
  }

  /** Prometheus text exposition of every meter. */
  public String scrape() {
    return registry.scrape();
  }

  public long relayed() {
    return (long) records.values().stream().mapToDouble(Counter::count).sum();
  }

  public long deadLettered() {
    return (long) dlt.count();
  }

  public long ignored() {
    return (long) (updates.count() + deletes.count());
  }

  public long purged() {
    return (long) purgedRows.count();
  }

  public long binlogRecoveryCount() {
    return (long) binlogRecoveries.count();
  }

  /** Times the relay re-read the table after its replication slot was lost or dropped. */
  public long slotRecoveryCount() {
    return slotRecoveries == null ? 0 : (long) slotRecoveries.count();
  }

  /** True while the slot guard warns (PostgreSQL only). */
  public boolean slotWarned() {
    return slotWarning.get() == 1;
  }

  boolean postgres() {
    return postgres;
  }

  public long watermarkValue() {
    return watermark.get();
  }

  /** Contract columns the last inserted row lacked; empty when the table is as expected. */
  public List<String> missingColumnNames() {
    return missingColumns.get();
  }

  /** Relay topics found deleted at the last check; empty when all exist. */
  public List<String> missingTopicNames() {
    return missingTopics.get();
  }

  void recordAck(long createdAtMs) {
    enqueueToAck.record(Duration.ofMillis(Math.max(0, clock.millis() - createdAtMs)));
  }

  private double offsetAgeMs() {
    long at = lastOffsetAtMs.get();
    return at < 0 ? -1 : clock.millis() - at;
  }

  /**
   * Counts {@code n} records of {@code kind} the broker acknowledged on {@code <ns>.tasks}: {@code
   * tasklane_relay_records_total{kind="task|cancel|schedule|unschedule"}}.
   */
  void relayed(OutboxKind kind, int n) {
    if (n > 0) {
      records.get(kind).increment(n);
    }
  }

  private Map<OutboxKind, Counter> recordCounters() {
    Map<OutboxKind, Counter> byKind = new EnumMap<>(OutboxKind.class);
    for (OutboxKind kind : OutboxKind.values()) {
      byKind.put(kind, counter("tasklane.relay.records", "kind", kind.recordType()));
    }
    return byKind;
  }

  private Counter counter(String name, String tag, String value) {
    var b = Counter.builder(name);
    if (tag != null) {
      b.tag(tag, value);
    }
    return b.register(registry);
  }

  private void gauge(String name, String description, AtomicLong value) {
    Gauge.builder(name, value, AtomicLong::doubleValue).description(description).register(registry);
  }
}
