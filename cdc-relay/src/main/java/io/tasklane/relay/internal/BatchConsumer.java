package io.tasklane.relay.internal;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.tasklane.core.TasklaneException;
import io.tasklane.core.Topics;
import io.tasklane.core.outbox.OutboxBatches;
import io.tasklane.core.outbox.OutboxKind;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.tracing.Tracing;
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
  private final RowDeadLetters deadLetters;
  private final RelayMetrics metrics;
  private final Clock clock;
  private final BooleanSupplier stopping;
  private final Consumer<Map<String, ?>> offsetListener;
  private final Tracing tracing;

  BatchConsumer(
      RowMapper mapper,
      KafkaSender sender,
      Topics topics,
      String table,
      RelayMetrics metrics,
      Clock clock,
      BooleanSupplier stopping,
      Consumer<Map<String, ?>> offsetListener) {
    this(mapper, sender, topics, table, metrics, clock, stopping, offsetListener, Tracing.off());
  }

  BatchConsumer(
      RowMapper mapper,
      KafkaSender sender,
      Topics topics,
      String table,
      RelayMetrics metrics,
      Clock clock,
      BooleanSupplier stopping,
      Consumer<Map<String, ?>> offsetListener,
      Tracing tracing) {
    this.mapper = mapper;
    this.sender = sender;
    this.topics = topics;
    this.deadLetters = new RowDeadLetters(topics, table, metrics);
    this.metrics = metrics;
    this.clock = clock;
    this.stopping = stopping;
    this.offsetListener = offsetListener;
    this.tracing = tracing;
  }

  @Override
  public void handleBatch(
      List<RecordChangeEvent<SourceRecord>> events,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    long now = clock.millis();
    List<ProducerRecord<String, byte[]>> out = new ArrayList<>(events.size());
    List<OutboxRow> rows = new ArrayList<>(events.size()); // per record of out, null if unread
    List<OutboxKind> kinds = new ArrayList<>(events.size()); // per record of out: its kind, or null
    int updates = 0, deletes = 0, snapshot = 0, missingColumnRows = 0, batchRows = 0;
    long maxRowId = -1;
    long lastSourceTs = -1;
    PublishSpans spans = new PublishSpans(tracing);
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
          ProducerRecord<String, byte[]> missing = deadLetters.ifColumnsMissing(after);
          if (missing != null) {
            out.add(missing);
            rows.add(null);
            kinds.add(null);
            spans.none();
            missingColumnRows++;
            continue;
          }
          OutboxRow row;
          try {
            row = OutboxStructs.read(after);
          } catch (RuntimeException e) {
            out.add(deadLetters.unreadable(after, e));
            rows.add(null);
            kinds.add(null);
            spans.none();
            continue;
          }
          maxRowId = Math.max(maxRowId, row.id());
          if (OutboxKind.ofColumn(row.kind()).orElse(null) == OutboxKind.BATCH) {
            batchRows++;
            List<OutboxRow> elements;
            try {
              elements = OutboxBatches.unpack(row);
            } catch (TasklaneException e) {
              relay(row, new Mapped.Rejected(e.getMessage()), "", now, out, rows, kinds, spans);
              continue;
            }
            for (int i = 0; i < elements.size(); i++) {
              OutboxRow element = elements.get(i);
              String where = "batch element " + i + " of " + elements.size() + ": ";
              relay(element, mapper.map(element, now), where, now, out, rows, kinds, spans);
            }
          } else {
            relay(row, mapper.map(row, now), "", now, out, rows, kinds, spans);
          }
        }
        case "u" -> updates++;
        case "d" -> deletes++;
        default -> LOG.debug("ignoring op {}", op);
      }
    }
    List<ProducerRecord<String, byte[]>> acked;
    try {
      acked =
          sender.sendAll(
              out,
              (i, refused, error, times) -> deadLetters.refused(rows.get(i), refused, error, times),
              stopping);
    } catch (InterruptedException | RuntimeException e) {
      spans.abandoned(e);
      throw e;
    }
    spans.acknowledged(acked);
    for (RecordChangeEvent<SourceRecord> event : events) {
      committer.markProcessed(event);
    }
    committer.markBatchFinished();
    long ackedAt = clock.millis();
    int[] relayed = new int[OutboxKind.values().length];
    int dead = 0;
    for (int i = 0; i < acked.size(); i++) {
      ProducerRecord<String, byte[]> r = acked.get(i);
      if (r == null) {
        continue; // dropped after refusals, logged there
      }
      if (r.topic().equals(topics.relayDlt())) {
        dead++;
      } else {
        metrics.recordAck(rows.get(i).createdAt());
        OutboxKind kind = kinds.get(i);
        relayed[(kind == null ? OutboxKind.TASK : kind).ordinal()]++;
      }
    }
    for (OutboxKind kind : OutboxKind.values()) {
      metrics.relayed(kind, relayed[kind.ordinal()]);
    }
    metrics.dlt.increment(dead);
    metrics.missingColumnRows.increment(missingColumnRows);
    metrics.batchRows.increment(batchRows);
    metrics.updates.increment(updates);
    metrics.deletes.increment(deletes);
    metrics.snapshotRows.increment(snapshot);
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

  /**
   * Adds what one row (or one element of a batch row, {@code where} naming it) becomes to the
   * batch's output: its record on {@code <ns>.tasks}, or its dead letter (and, for a member of a
   * batch, the notice that counts it DEAD there: {@link RefusedMembers}).
   */
  private void relay(
      OutboxRow row,
      Mapped mapped,
      String where,
      long now,
      List<ProducerRecord<String, byte[]>> out,
      List<OutboxRow> rows,
      List<OutboxKind> kinds,
      PublishSpans spans) {
    if (mapped instanceof Mapped.Relayed r) {
      out.add(new ProducerRecord<>(topics.tasks(), r.key(), r.value()));
      if (r.kind() == OutboxKind.TASK) {
        spans.task(row, out.get(out.size() - 1));
      } else {
        spans.none();
      }
    } else if (mapped instanceof Mapped.Rejected rej) {
      spans.none();
      out.add(deadLetters.rejected(row, where + rej.reason()));
    }
    rows.add(row);
    kinds.add(mapped instanceof Mapped.Relayed rel ? rel.kind() : null);
    if (mapped instanceof Mapped.Rejected) {
      ProducerRecord<String, byte[]> notice = RefusedMembers.notice(topics.tasks(), row, now);
      if (notice != null) { // a batch member: its batch counts it DEAD
        spans.none();
        out.add(notice);
        rows.add(row);
        kinds.add(OutboxKind.BATCH_PART); // counted with the batches' own records
      }
    }
  }
}
