package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxBatches;
import io.tasklane.core.outbox.OutboxKind;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.outbox.OutboxConfig;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Batched outbox rows ({@code tasklane.outbox.batch-rows}) through a real relay: {@code enqueueAll}
 * writes one BATCH row per run of tasks, and the relay publishes one task record per task, in
 * order, exactly as single rows would be; a bad element of a forged batch row is dead-lettered
 * alone, naming the element and the field.
 */
@TasklaneStack
class BatchRelayTest {
  static RelayFixture fx;
  static Relay relay;
  static TopicReader tasks;
  static TopicReader dlt;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    fx = new RelayFixture(stack, "relay_batch");
    tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks());
    dlt = new TopicReader(stack.bootstrapServers(), fx.topics.relayDlt());
    relay = fx.startRelay(Clock.systemUTC());
    assertThat(relay.awaitStreaming(Duration.ofSeconds(90)))
        .as("relay streaming; state %s", relay.status())
        .isTrue();
  }

  @AfterAll
  static void stop() throws Exception {
    if (relay != null) {
      relay.close();
    }
    if (tasks != null) {
      tasks.close();
    }
    if (dlt != null) {
      dlt.close();
    }
  }

  @Test
  void enqueueAllWritesBatchRowsThatTheRelayFansOutToOneRecordPerTaskInOrder() throws Exception {
    List<TaskRequest> requests = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      requests.add(TaskRequest.to("mail.send").payload(Map.of("n", i)).orderingKey("batch-order"));
    }
    List<String> ids;
    List<String> kinds = new ArrayList<>();
    try (Connection c = fx.connect()) {
      c.setAutoCommit(false);
      ids =
          TaskOutbox.builder()
              .config(OutboxConfig.DEFAULT.withBatchRows(50))
              .jdbc(c)
              .enqueueAll(requests);
      try (ResultSet rs =
          c.createStatement()
              .executeQuery(
                  "SELECT kind FROM tasklane_outbox WHERE task_id = '"
                      + ids.get(0)
                      + "'"
                      + " OR task_id = '"
                      + ids.get(50)
                      + "' OR task_id = '"
                      + ids.get(100)
                      + "'")) {
        while (rs.next()) {
          kinds.add(rs.getString(1));
        }
      }
      c.commit();
    }
    assertThat(kinds).containsExactly("BATCH", "BATCH", "BATCH");

    List<ConsumerRecord<String, byte[]>> relayed = awaitRecords("batch-order", 120);
    List<String> order = new ArrayList<>();
    for (int i = 0; i < relayed.size(); i++) {
      TaskEnvelope task = (TaskEnvelope) WireCodec.decodeTaskRecord(relayed.get(i).value());
      order.add(task.id());
      assertThat(task.handler()).isEqualTo("mail.send");
      assertThat(task.payload().path("n").asInt()).isEqualTo(i);
    }
    assertThat(order).isEqualTo(ids);
    assertThat(relay.metricsText())
        .containsPattern("tasklane_relay_batch_rows_total(\\{[^}]*})? 3\\.0")
        .containsPattern("tasklane_relay_records_total\\{kind=\"task\"[^}]*} 120\\.0");
  }

  @Test
  void aBadElementOfAForgedBatchRowIsDeadLetteredAloneAndTheOthersAreRelayed() throws Exception {
    List<OutboxRow> rows = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String id = TaskIds.keyless(Clock.systemUTC());
      rows.add(
          OutboxRow.builder()
              .taskId(id)
              .routingKey("forged-order")
              .kind(OutboxKind.TASK)
              .handler(i == 1 ? "Bad!" : "mail.send")
              .payload("{\"n\":" + i + "}")
              .dueAt(System.currentTimeMillis())
              .maxAttempts(3)
              .timeoutMs(30_000)
              .createdAt(System.currentTimeMillis())
              .build());
    }
    OutboxRow batch = OutboxBatches.pack(rows, 10).get(0);
    String rowId;
    try (Connection c = fx.connect();
        PreparedStatement ps =
            c.prepareStatement(RelayFixture.INSERT, PreparedStatement.RETURN_GENERATED_KEYS)) {
      // Written by hand: the outbox would refuse the bad handler before the insert.
      RelayFixture.bindTask(
          ps, batch.taskId(), batch.routingKey(), "mail.send", batch.payload(), batch.dueAt());
      ps.setString(3, "BATCH");
      ps.executeUpdate();
      try (var keys = ps.getGeneratedKeys()) {
        keys.next();
        rowId = String.valueOf(keys.getLong(1));
      }
    }

    List<ConsumerRecord<String, byte[]>> relayed = awaitRecords("forged-order", 2);
    assertThat(relayed)
        .extracting(r -> ((TaskEnvelope) WireCodec.decodeTaskRecord(r.value())).id())
        .containsExactly(rows.get(0).taskId(), rows.get(2).taskId());
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(dlt.firstByKey).containsKey(rowId));
    String reason =
        new String(
            dlt.firstByKey.get(rowId).headers().lastHeader("tasklane.relay.reason").value(),
            StandardCharsets.UTF_8);
    assertThat(reason).startsWith("batch element 1 of 3: handler");
  }

  private static List<ConsumerRecord<String, byte[]>> awaitRecords(String key, int n) {
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () ->
                assertThat(tasks.records.stream().filter(r -> key.equals(r.key())).count())
                    .isGreaterThanOrEqualTo(n));
    return tasks.records.stream().filter(r -> key.equals(r.key())).toList();
  }
}
