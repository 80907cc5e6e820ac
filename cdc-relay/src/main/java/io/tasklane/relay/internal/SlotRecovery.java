package io.tasklane.relay.internal;

import io.tasklane.relay.RelayException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before the PostgreSQL connector starts (and again when the slot guard finds the slot invalidated
 * during a term): if the relay group's replication slot was lost ({@code wal_status = 'lost'}) or
 * dropped while a stored offset still refers to it, the WAL between that offset and now is gone.
 * Debezium would either retry a lost slot for a long time or create a fresh slot and stream from
 * the current position, silently skipping the rows committed in between. So the relay drops a lost
 * slot, forgets the stored offset (a tombstone in the offsets topic) and lets the connector start
 * as on its first day: it creates the slot and snapshots the outbox table ({@code
 * snapshot.mode=initial}), re-reading every row still there. Purge only deletes relayed rows, so
 * every unrelayed row is among them; the relayed ones are sent again and their stable task ids make
 * the repeat harmless downstream. Leader loop thread only, with no engine running.
 */
final class SlotRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(SlotRecovery.class);
  private static final Duration DROP_WAIT = Duration.ofSeconds(30);

  private final ReplicationSlot slot;
  private final StoredOffsets offsets;
  private final RelayMetrics metrics;
  private final String table;

  SlotRecovery(
      ReplicationSlot slot, StoredOffsets offsets, RelayMetrics metrics, String qualifiedTable) {
    this.slot = slot;
    this.offsets = offsets;
    this.metrics = metrics;
    this.table = qualifiedTable;
  }

  /**
   * Checks the slot and the stored offset; recovers when the slot cannot resume the offset.
   *
   * @return true when it recovered (the next engine start snapshots the table)
   */
  boolean recoverIfSlotLost() throws Exception {
    ReplicationSlot.State s = slot.read();
    Optional<StoredOffsets.Stored> stored = offsets.read();
    boolean hasOffset = stored.isPresent() && stored.get().value().has("lsn");
    String what;
    if (s.lost()) {
      what = "was lost (invalidated by the server: max_slot_wal_keep_size reached)";
      slot.drop(DROP_WAIT);
    } else if (!s.exists() && hasOffset) {
      what = "was dropped";
    } else {
      if (hasOffset) {
        LOG.info(
            "resuming from stored LSN {} on replication slot {}",
            stored.get().value().path("lsn").asText(),
            slot.name());
      } else {
        LOG.info("no stored offset for slot {}: the first start snapshots {}", slot.name(), table);
      }
      return false;
    }
    if (hasOffset) {
      try {
        offsets.forget(stored.get());
      } catch (Exception e) {
        throw new RelayException("cannot reset the relay's stored offset", e);
      }
    }
    long rows = slot.outboxRows();
    metrics.slotRecoveries.increment();
    LOG.warn(
        "replication slot {} {}; recreating it and re-reading {} rows still in the outbox table {}"
            + " (every unrelayed row is among them: purge deletes relayed rows only; rows relayed"
            + " before are sent again with their task ids)",
        slot.name(),
        what,
        rows,
        table);
    return true;
  }
}
