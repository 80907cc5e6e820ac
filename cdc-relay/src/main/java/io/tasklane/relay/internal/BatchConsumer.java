package io.tasklane.relay.internal;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.tasklane.core.Topics;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's batch consumer: maps inserts (and snapshot reads) to records, sends the whole batch,
 * waits for Kafka's acknowledgements and only then marks each event processed and the batch
 * finished, so offsets never run ahead of Kafka. Updates and deletes are counted and skipped.
 * Called by Debezium on one engine thread at a time.
 */
final class BatchConsumer
    implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {
  private static final Logger LOG = LoggerFactory.getLogger(BatchConsumer.class);

  private final RowMapper mapper;
  private final KafkaSender sender;
  private final Topics topics;
  private final String table;
  private final RelayMetrics metrics;
  private final Clock clock;
  private final BooleanSupplier stopping;
  private final Consumer<Map<String, ?>> offsetListener;

  BatchConsumer(
      RowMapper mapper,
      KafkaSender sender,
      Topics topics,
      String table,
      RelayMetrics metrics,
      Clock clock,
      BooleanSupplier stopping,
      Consumer<Map<String, ?>> offsetListener) {
    this.mapper = mapper;
    this.sender = sender;
    this.topics = topics;
    this.table = table;
    this.metrics = metrics;
    this.clock = clock;
    this.stopping = stopping;
    this.offsetListener = offsetListener;
  }

  @Override
  public void handleBatch(
      List<RecordChangeEvent<SourceRecord>> events,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    long now = clock.millis();
    List<ProducerRecord<String, byte[]>> out = new ArrayList<>(events.size());
    List<Long> createdAts = new ArrayList<>(events.size());
    int tasks = 0, cancels = 0, dead = 0, updates = 0, deletes = 0, snapshot = 0;
    long maxRowId = -1;
    long lastSourceTs = -1;
    for (RecordChangeEvent<SourceRecord> event : events) {
      SourceRecord record = event.record();
      if (!(record.value() instanceof Struct value) || value.schema().field("op") == null) {
        continue; // heartbeat or tombstone: nothing to relay, but its offset counts
      }
      String op = value.getString("op");
      Struct source = value.getStruct("source");
      if (source != null
          && source.schema().field("ts_ms") != null
          && source.getInt64("ts_ms") != null) {
        lastSourceTs = source.getInt64("ts_ms");
      }
      switch (op) {
        case "c", "r" -> {
          if (op.equals("r")) {
            snapshot++;
          }
          Struct after = value.getStruct("after");
          OutboxRow row;
          try {
            row = OutboxRow.of(after);
          } catch (RuntimeException e) {
            out.add(
                DeadLetters.of(
                    topics.relayDlt(),
                    table,
                    -1,
                    Map.of("raw", String.valueOf(after)),
                    "row: " + e.getMessage()));
            dead++;
            continue;
          }
          maxRowId = Math.max(maxRowId, row.id());
          Mapped mapped = mapper.map(row, now);
          if (mapped instanceof Mapped.Relayed r) {
            out.add(new ProducerRecord<>(topics.tasks(), r.key(), r.value()));
            createdAts.add(row.createdAt());
            if (r.kind().equals("task")) {
              tasks++;
            } else {
              cancels++;
            }
          } else if (mapped instanceof Mapped.Rejected rej) {
            LOG.warn("outbox row {} goes to {}: {}", row.id(), topics.relayDlt(), rej.reason());
            out.add(DeadLetters.of(topics.relayDlt(), table, row.id(), row.toMap(), rej.reason()));
            dead++;
          }
        }
        case "u" -> updates++;
        case "d" -> deletes++;
        default -> LOG.debug("ignoring op {}", op);
      }
    }
    sender.sendAll(out, stopping);
    for (RecordChangeEvent<SourceRecord> event : events) {
      committer.markProcessed(event);
    }
    committer.markBatchFinished();
    long ackedAt = clock.millis();
    metrics.tasks.increment(tasks);
    metrics.cancels.increment(cancels);
    metrics.dlt.increment(dead);
    metrics.updates.increment(updates);
    metrics.deletes.increment(deletes);
    metrics.snapshotRows.increment(snapshot);
    createdAts.forEach(metrics::recordAck);
    if (maxRowId >= 0) {
      metrics.watermark.accumulateAndGet(maxRowId, Math::max);
    }
    if (lastSourceTs > 0) {
      metrics.binlogLagMs.set(Math.max(0, ackedAt - lastSourceTs));
    }
    metrics.lastOffsetAtMs.set(ackedAt);
    if (!events.isEmpty()) {
      offsetListener.accept(events.get(events.size() - 1).record().sourceOffset());
    }
  }
}
