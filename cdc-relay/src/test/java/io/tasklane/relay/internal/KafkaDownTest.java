package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.relay.RelayConfig;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/**
 * With no broker listening, the batch consumer retries with backoff and never marks a record
 * processed (so Debezium never advances the offset); stopping the relay abandons the batch
 * unmarked. (The broker's return is not tested: the shared stack's broker cannot be stopped.)
 */
class KafkaDownTest {

  @Test
  void retriesWithoutMarkingRecordsProcessedWhileKafkaIsDown() throws Exception {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort(); // closed again: nothing listens there
    }
    RelayConfig config =
        RelayConfig.fromProperties(
            Map.of(
                "tasklane.relay.jdbc-url", "jdbc:mariadb://127.0.0.1:1/db",
                "tasklane.relay.username", "u",
                "tasklane.relay.bootstrap-servers", "127.0.0.1:" + deadPort,
                "tasklane.relay.max-send-backoff-ms", "200",
                "tasklane.relay.kafka.delivery.timeout.ms", "1000",
                "tasklane.relay.kafka.request.timeout.ms", "500",
                "tasklane.relay.kafka.max.block.ms", "500"));
    RelayMetrics metrics = new RelayMetrics(Clock.systemUTC());
    AtomicBoolean stopping = new AtomicBoolean();
    AtomicInteger marked = new AtomicInteger();
    AtomicReference<Throwable> outcome = new AtomicReference<>();
    try (KafkaSender sender =
        new KafkaSender(new KafkaClients(config), metrics, config.maxSendBackoff())) {
      var consumer =
          new BatchConsumer(
              new RowMapper("tasklane_outbox", TaskLimits.DEFAULT),
              sender,
              config.topics(),
              "tasklane_outbox",
              metrics,
              Clock.systemUTC(),
              stopping::get,
              o -> {});
      Thread engineThread =
          new Thread(
              () -> {
                try {
                  consumer.handleBatch(List.of(insertEvent()), committer(marked));
                  outcome.set(new AssertionError("batch reported as sent"));
                } catch (Throwable t) {
                  outcome.set(t);
                }
              });
      engineThread.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> metrics.sendRetries.count() >= 3);
      assertThat(marked).hasValue(0);
      stopping.set(true);
      engineThread.join(30_000);
    }
    assertThat(outcome.get()).isInstanceOf(InterruptedException.class);
    assertThat(marked).hasValue(0);
    assertThat(metrics.relayed()).isZero();
    assertThat(metrics.watermarkValue()).isZero();
  }

  private static DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer(
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

  /** A Debezium insert envelope of one valid outbox row. */
  private static RecordChangeEvent<SourceRecord> insertEvent() {
    Schema row =
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
    Schema source = SchemaBuilder.struct().field("ts_ms", Schema.INT64_SCHEMA).build();
    Schema envelope =
        SchemaBuilder.struct()
            .field("op", Schema.STRING_SCHEMA)
            .field("after", row)
            .field("source", source)
            .build();
    String id = TaskIds.keyless(Clock.systemUTC());
    long now = System.currentTimeMillis();
    Struct after =
        new Struct(row)
            .put("id", 1L)
            .put("task_id", id)
            .put("routing_key", id)
            .put("kind", "TASK")
            .put("handler", "down.test")
            .put("payload", "{}")
            .put("due_at", now)
            .put("max_attempts", 3)
            .put("timeout_ms", 60_000L)
            .put("created_at", now);
    Struct value =
        new Struct(envelope)
            .put("op", "c")
            .put("after", after)
            .put("source", new Struct(source).put("ts_ms", now));
    SourceRecord record =
        new SourceRecord(
            Map.of("server", "x"), Map.of("file", "f", "pos", 1L), "x.db.t", envelope, value);
    return () -> record;
  }
}
