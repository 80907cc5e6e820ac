package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Oversized rows inserted by hand, past outbox-lib: dead-lettered, and nothing stalls. */
@TasklaneStack
class RelayBadInputTest {
  static RelayFixture fx;
  static Relay relay;
  static TopicReader tasks;
  static TopicReader dlt;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    fx = new RelayFixture(stack, "relay_bad");
    tasks = new TopicReader(stack.bootstrapServers(), fx.topics.tasks());
    dlt = new TopicReader(stack.bootstrapServers(), fx.topics.relayDlt());
    relay =
        fx.startRelay(
            Clock.systemUTC(),
            "tasklane.relay.max-payload-bytes",
            String.valueOf(TaskLimits.HARD_MAX_PAYLOAD_BYTES));
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
  void aThreeMegabyteCancelReasonIsDeadLetteredWhileLaterRowsKeepFlowing() throws Exception {
    String cancelled = TaskIds.keyless(Clock.systemUTC());
    int chars = 3 * 1024 * 1024;
    String rowId;
    List<String> later = new ArrayList<>();
    try (Connection c = fx.connect();
        PreparedStatement ps =
            c.prepareStatement(RelayFixture.INSERT, PreparedStatement.RETURN_GENERATED_KEYS)) {
      RelayFixture.bindTask(
          ps,
          cancelled,
          cancelled,
          null,
          "\"" + "r".repeat(chars) + "\"",
          System.currentTimeMillis());
      ps.setString(3, "CANCEL");
      ps.executeUpdate();
      try (var keys = ps.getGeneratedKeys()) {
        keys.next();
        rowId = String.valueOf(keys.getLong(1));
      }
      for (int i = 0; i < 3; i++) {
        later.addAll(fx.insertTasks(c, 1, "after.huge.cancel"));
      }
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              assertThat(dlt.firstByKey).containsKey(rowId);
              assertThat(tasks.firstByKey.keySet()).containsAll(later);
            });
    var dead = dlt.firstByKey.get(rowId);
    assertThat(new String(dead.headers().lastHeader("tasklane.relay.reason").value()))
        .isEqualTo(
            "reason: is "
                + chars
                + " characters; the limit is "
                + TaskLimits.MAX_CANCEL_REASON_CHARS
                + " (as TaskOutbox.cancel enforces)");
    assertThat(new String(dead.headers().lastHeader("tasklane.relay.row-id").value()))
        .isEqualTo(rowId);
    assertThat(dead.value().length).isLessThan(100_000); // a clipped copy of the row
    assertThat(tasks.firstByKey).doesNotContainKey(cancelled);
  }

  @Test
  void aTaskWithAPayloadAtTheOneMebibyteHardCapReachesTheTasksTopic() throws Exception {
    String id = TaskIds.keyless(Clock.systemUTC());
    String text = "p".repeat(TaskLimits.HARD_MAX_PAYLOAD_BYTES - 2); // JSON string: 1 MiB
    try (Connection c = fx.connect();
        PreparedStatement ps = c.prepareStatement(RelayFixture.INSERT)) {
      RelayFixture.bindTask(
          ps, id, id, "max.payload", "\"" + text + "\"", System.currentTimeMillis());
      ps.executeUpdate();
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() -> assertThat(tasks.firstByKey).containsKey(id));
    var record = tasks.firstByKey.get(id);
    assertThat(record.value().length).isGreaterThan(TaskLimits.HARD_MAX_PAYLOAD_BYTES);
    TaskEnvelope t = (TaskEnvelope) WireCodec.decodeTaskRecord(record.value());
    assertThat(t.payload().asText()).hasSize(text.length());
    assertThat(dlt.records)
        .noneMatch(r -> new String(r.value(), StandardCharsets.UTF_8).contains(id));
  }

  @Test
  void everyTopicTheRelayUsesAcceptsTheLargestValidTask() throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", fx.stack.bootstrapServers()))) {
      for (String topic :
          List.of(
              fx.topics.tasks(),
              fx.topics.relayDlt(),
              fx.topics.relayOffsets(),
              fx.topics.relayHistory())) {
        var resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        var config =
            admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
        assertThat(Integer.parseInt(config.get("max.message.bytes").value()))
            .as(topic)
            .isGreaterThanOrEqualTo(TopicAdmin.MAX_MESSAGE_BYTES)
            .isGreaterThan(TaskLimits.MAX_RECORD_BYTES);
      }
    }
  }
}
