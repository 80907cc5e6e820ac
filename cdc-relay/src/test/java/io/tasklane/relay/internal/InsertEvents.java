package io.tasklane.relay.internal;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/** Debezium insert events of outbox rows and a committer that counts marks, for batch tests. */
final class InsertEvents {
  /** Every column of the contract DDL, as Debezium describes the real table. */
  private static final Schema ROW =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("task_id", Schema.STRING_SCHEMA)
          .field("routing_key", Schema.STRING_SCHEMA)
          .field("kind", Schema.STRING_SCHEMA)
          .field("handler", Schema.OPTIONAL_STRING_SCHEMA)
          .field("task_key", Schema.OPTIONAL_STRING_SCHEMA)
          .field("payload", Schema.OPTIONAL_STRING_SCHEMA)
          .field("due_at", Schema.INT64_SCHEMA)
          .field("max_attempts", Schema.INT32_SCHEMA)
          .field("timeout_ms", Schema.INT64_SCHEMA)
          .field("backoff", Schema.OPTIONAL_STRING_SCHEMA)
          .field("depends_on", Schema.OPTIONAL_STRING_SCHEMA)
          .field("headers", Schema.OPTIONAL_STRING_SCHEMA)
          .field("created_at", Schema.INT64_SCHEMA)
          .build();

  private static final Schema SOURCE = SchemaBuilder.struct().field("ts_ms", Schema.INT64_SCHEMA);
  private static final Schema ENVELOPE =
      SchemaBuilder.struct()
          .field("op", Schema.STRING_SCHEMA)
          .field("after", ROW)
          .field("source", SOURCE)
          .build();

  private InsertEvents() {}

  /** The insert of a TASK row {@code rowId} with task id {@code taskId} and {@code payload}. */
  static RecordChangeEvent<SourceRecord> task(long rowId, String taskId, String payload) {
    return task(rowId, taskId, payload, null);
  }

  /** The same with the {@code headers} column (JSON, or null). */
  static RecordChangeEvent<SourceRecord> task(
      long rowId, String taskId, String payload, String headers) {
    long now = System.currentTimeMillis();
    Struct after =
        new Struct(ROW)
            .put("id", rowId)
            .put("task_id", taskId)
            .put("routing_key", taskId)
            .put("kind", "TASK")
            .put("handler", "batch.test")
            .put("payload", payload)
            .put("due_at", now)
            .put("max_attempts", 3)
            .put("timeout_ms", 60_000L)
            .put("headers", headers)
            .put("created_at", now);
    Struct value =
        new Struct(ENVELOPE)
            .put("op", "c")
            .put("after", after)
            .put("source", new Struct(SOURCE).put("ts_ms", now));
    SourceRecord record =
        new SourceRecord(
            Map.of("server", "x"), Map.of("file", "f", "pos", rowId), "x.db.t", ENVELOPE, value);
    return () -> record;
  }

  /** Counts every markProcessed and markBatchFinished. */
  static DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer(
      AtomicInteger marked) {
    return new DebeziumEngine.RecordCommitter<>() {
      @Override
      public void markProcessed(RecordChangeEvent<SourceRecord> record) {
        marked.incrementAndGet();
      }

      @Override
      public void markBatchFinished() {
        marked.incrementAndGet();
      }

      @Override
      public void markProcessed(
          RecordChangeEvent<SourceRecord> record, DebeziumEngine.Offsets sourceOffsets) {
        marked.incrementAndGet();
      }

      @Override
      public DebeziumEngine.Offsets buildOffsets() {
        throw new UnsupportedOperationException();
      }
    };
  }
}
