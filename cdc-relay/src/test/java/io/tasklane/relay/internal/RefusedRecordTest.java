package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.relay.RelayConfig;
import io.tasklane.relay.TopicReader;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A record Kafka refuses because of the record itself (too large for the topic or the producer)
 * goes to the relay DLT and the rest of its batch is acknowledged: the batch never stalls.
 */
@TasklaneStack
@Timeout(120) // before, the batch was retried forever: a hang, not a failure
class RefusedRecordTest {

  @Test
  void aRecordTheTopicRefusesIsDeadLetteredAndTheRestOfTheBatchIsAcknowledged(LocalStack stack)
      throws Exception {
    Topics topics = new Topics("t" + UUID.randomUUID().toString().substring(0, 8));
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      // an operator-made tasks topic with a small limit (TopicAdmin would have raised it)
      admin
          .createTopics(
              List.of(
                  new NewTopic(topics.tasks(), Optional.of(1), Optional.empty())
                      .configs(Map.of("max.message.bytes", "20000"))))
          .all()
          .get(30, TimeUnit.SECONDS);
      TopicAdmin.ensure(admin, List.of(TopicAdmin.Spec.of(topics.relayDlt(), 1)));
    }
    Batch batch = runBatch(stack, topics, Map.of(), 100_000);

    assertThat(batch.marked).hasValue(4); // three events and the batch: nothing holds it up
    ConsumerRecord<String, byte[]> dead = batch.dlt.get("2");
    assertThat(header(dead, "tasklane.relay.reason"))
        .startsWith("record: Kafka refused the ")
        .contains("RecordTooLargeException")
        .contains(String.valueOf(TopicAdmin.MAX_MESSAGE_BYTES));
    assertThat(header(dead, "tasklane.relay.row-id")).isEqualTo("2");
    var body = WireCodec.readTree(new String(dead.value(), StandardCharsets.UTF_8));
    assertThat(body.path("row").path("task_id").asText()).isEqualTo(batch.ids.get(1));
    assertThat(batch.metrics.relayed()).isEqualTo(2);
    assertThat(batch.metrics.deadLettered()).isEqualTo(1);
  }

  @Test
  void aRecordOverTheProducersRequestLimitIsDeadLetteredWithoutTheRowWhenTheCopyIsRefusedToo(
      LocalStack stack) throws Exception {
    Topics topics = new Topics("t" + UUID.randomUUID().toString().substring(0, 8));
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      TopicAdmin.ensure(
          admin,
          List.of(TopicAdmin.Spec.of(topics.tasks(), 1), TopicAdmin.Spec.of(topics.relayDlt(), 1)));
    }
    Batch batch =
        runBatch(stack, topics, Map.of("tasklane.relay.kafka.max.request.size", "20000"), 50_000);

    assertThat(batch.marked).hasValue(4);
    ConsumerRecord<String, byte[]> dead = batch.dlt.get("2");
    assertThat(header(dead, "tasklane.relay.reason")).contains("RecordTooLargeException");
    var body = WireCodec.readTree(new String(dead.value(), StandardCharsets.UTF_8));
    assertThat(body.has("row")).isFalse(); // the 50 KB copy was over 20000 bytes too
    assertThat(body.path("rowId").asLong()).isEqualTo(2);
    assertThat(batch.metrics.relayed()).isEqualTo(2);
    assertThat(batch.metrics.deadLettered()).isEqualTo(1);
  }

  private record Batch(
      List<String> ids,
      AtomicInteger marked,
      RelayMetrics metrics,
      Map<String, ConsumerRecord<String, byte[]>> dlt) {}

  /** Rows 1 and 3 small, row 2 with a payload of {@code bigChars}; waits for all three. */
  private static Batch runBatch(
      LocalStack stack, Topics topics, Map<String, String> extra, int bigChars) throws Exception {
    Map<String, String> p = new HashMap<>(extra);
    p.put("tasklane.relay.jdbc-url", "jdbc:mariadb://127.0.0.1:1/db");
    p.put("tasklane.relay.username", "u");
    p.put("tasklane.relay.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.relay.namespace", topics.namespace());
    p.put("tasklane.relay.max-send-backoff", "200ms");
    RelayConfig config = RelayConfig.fromProperties(p);
    RelayMetrics metrics = new RelayMetrics(Clock.systemUTC());
    AtomicInteger marked = new AtomicInteger();
    List<String> ids =
        List.of(
            TaskIds.keyless(Clock.systemUTC()),
            TaskIds.keyless(Clock.systemUTC()),
            TaskIds.keyless(Clock.systemUTC()));
    try (KafkaSender sender =
            new KafkaSender(new KafkaClients(config), metrics, config.maxSendBackoff());
        TopicReader tasks = new TopicReader(stack.bootstrapServers(), topics.tasks());
        TopicReader dlt = new TopicReader(stack.bootstrapServers(), topics.relayDlt())) {
      var consumer =
          new BatchConsumer(
              new RowMapper("tasklane_outbox", TaskLimits.DEFAULT),
              sender,
              topics,
              "tasklane_outbox",
              metrics,
              Clock.systemUTC(),
              () -> false,
              o -> {});
      consumer.handleBatch(
          List.of(
              InsertEvents.task(1, ids.get(0), "{\"n\":1}"),
              InsertEvents.task(2, ids.get(1), "\"" + "x".repeat(bigChars) + "\""),
              InsertEvents.task(3, ids.get(2), "{\"n\":3}")),
          InsertEvents.committer(marked));
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(tasks.firstByKey).containsKeys(ids.get(0), ids.get(2));
                assertThat(dlt.firstByKey).containsKey("2");
              });
      assertThat(tasks.firstByKey).doesNotContainKey(ids.get(1));
      return new Batch(ids, marked, metrics, Map.copyOf(dlt.firstByKey));
    }
  }

  private static String header(ConsumerRecord<String, byte[]> r, String name) {
    return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }
}
