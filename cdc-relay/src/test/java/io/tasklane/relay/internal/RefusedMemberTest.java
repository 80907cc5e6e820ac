package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.BatchMemberDone;
import io.tasklane.core.BatchPart;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TaskState;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.core.outbox.OutboxKind;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.relay.RelayConfig;
import io.tasklane.relay.TopicReader;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * A batch member whose row the relay dead-letters never becomes a task: the relay also tells its
 * batch, which counts it DEAD and can still complete, instead of waiting for it for good.
 */
@TasklaneStack
class RefusedMemberTest {
  private static final String HEADERS = "{\"tasklane.batch\":\"invoices-7\"}";

  @Test
  void aRefusedMemberIsDeadLetteredAndCountedDeadInItsBatch(LocalStack stack) throws Exception {
    Topics topics = new Topics("t" + UUID.randomUUID().toString().substring(0, 8));
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      TopicAdmin.ensure(
          admin,
          List.of(TopicAdmin.Spec.of(topics.tasks(), 1), TopicAdmin.Spec.of(topics.relayDlt(), 1)));
    }
    RelayConfig config =
        RelayConfig.fromProperties(
            Map.of(
                "tasklane.relay.jdbc-url",
                "jdbc:mariadb://127.0.0.1:1/db",
                "tasklane.relay.username",
                "u",
                "tasklane.relay.bootstrap-servers",
                stack.bootstrapServers(),
                "tasklane.relay.namespace",
                topics.namespace()));
    RelayMetrics metrics = new RelayMetrics(Clock.systemUTC());
    AtomicInteger marked = new AtomicInteger();
    String kept = TaskIds.keyless(Clock.systemUTC());
    String refused = TaskIds.keyless(Clock.systemUTC());
    String plain = TaskIds.keyless(Clock.systemUTC());
    // over the relay's payload limit: refused by the relay, never a task
    String tooLarge = "\"" + "x".repeat(TaskLimits.DEFAULT_MAX_PAYLOAD_BYTES) + "\"";
    try (KafkaSender sender =
            new KafkaSender(new KafkaClients(config), metrics, config.maxSendBackoff());
        TopicReader tasks = new TopicReader(stack.bootstrapServers(), topics.tasks());
        TopicReader dlt = new TopicReader(stack.bootstrapServers(), topics.relayDlt())) {
      new BatchConsumer(
              new RowMapper("tasklane_outbox", TaskLimits.DEFAULT),
              sender,
              topics,
              "tasklane_outbox",
              metrics,
              Clock.systemUTC(),
              () -> false,
              o -> {})
          .handleBatch(
              List.of(
                  InsertEvents.task(1, kept, "{\"n\":1}", HEADERS),
                  InsertEvents.task(2, refused, tooLarge, HEADERS),
                  InsertEvents.task(3, plain, tooLarge, null)),
              InsertEvents.committer(marked));
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(tasks.firstByKey).containsKeys(kept, BatchPart.key("invoices-7"));
                assertThat(dlt.firstByKey).containsKeys("2", "3");
              });
      BatchMemberDone done =
          (BatchMemberDone)
              WireCodec.decodeTaskRecord(tasks.firstByKey.get(BatchPart.key("invoices-7")).value());
      assertThat(done.validate().batch()).isEqualTo("invoices-7");
      assertThat(done.taskId()).isEqualTo(refused);
      assertThat(done.state()).isEqualTo(TaskState.DEAD);
      assertThat(tasks.firstByKey)
          .as("the refused rows are no tasks; the row without a batch tells nobody")
          .doesNotContainKeys(refused, plain)
          .hasSize(2);
      assertThat(marked).hasValue(4); // three events and the batch
      assertThat(metrics.deadLettered()).isEqualTo(2);
    }
  }

  @Test
  void onlyATaskRowThatNamesABatchMakesANotice() {
    OutboxRow member =
        OutboxRow.builder()
            .id(1)
            .taskId("t-1")
            .routingKey("t-1")
            .kind(OutboxKind.TASK)
            .headers(HEADERS)
            .build();
    var notice = RefusedMembers.notice("ns.tasks", member, 42);
    assertThat(notice.topic()).isEqualTo("ns.tasks");
    assertThat(notice.key()).isEqualTo(BatchPart.key("invoices-7"));
    assertThat(WireCodec.decodeTaskRecord(notice.value()))
        .isEqualTo(BatchMemberDone.of("invoices-7", "t-1", TaskState.DEAD, 42));
    assertThat(RefusedMembers.notice("ns.tasks", member.toBuilder().headers(null).build(), 42))
        .isNull();
    assertThat(RefusedMembers.notice("ns.tasks", member.toBuilder().headers("{oops").build(), 42))
        .as("headers that cannot be read name no batch")
        .isNull();
    assertThat(
            RefusedMembers.notice(
                "ns.tasks",
                member.toBuilder().headers("{\"tasklane.batch\":\"no spaces\"}").build(),
                42))
        .isNull();
    assertThat(
            RefusedMembers.notice(
                "ns.tasks", member.toBuilder().kind(OutboxKind.CANCEL).build(), 42))
        .isNull();
  }
}
