package io.tasklane.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TopicAdmin;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * {@code <ns>.tasks} deleted under a running relay (the broker does not auto-create topics): the
 * relay recreates it as it was (partitions and topic configs) and the rows committed meanwhile
 * arrive on the new topic.
 */
@TasklaneStack
class TopicDeletedTest {
  private static final String RETENTION = "86400000";

  @Test
  void aTasksTopicDeletedUnderARunningRelayIsRecreatedAsItWasAndRowsCommittedMeanwhileArrive(
      LocalStack stack) throws Exception {
    RelayFixture fx = new RelayFixture(stack, "relay_topic_del"); // tasks: 3 partitions
    String topic = fx.topics.tasks();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      var resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
      admin
          .incrementalAlterConfigs(
              Map.of(
                  resource,
                  List.of(
                      new AlterConfigOp(
                          new ConfigEntry("retention.ms", RETENTION), AlterConfigOp.OpType.SET))))
          .all()
          .get(30, TimeUnit.SECONDS);
      // The relay would create 5 partitions; the topic it finds has 3, and must come back so.
      try (Relay relay = fx.startRelay(Clock.systemUTC(), "tasklane.relay.tasks-partitions", "5");
          Connection c = fx.connect()) {
        assertThat(relay.awaitStreaming(Duration.ofSeconds(90)))
            .as("relay streaming; state %s", relay.status())
            .isTrue();
        try (TopicReader before = new TopicReader(stack.bootstrapServers(), topic)) {
          String first = fx.insertTasks(c, 1, "before.delete").get(0);
          await()
              .atMost(Duration.ofSeconds(60))
              .untilAsserted(() -> assertThat(before.firstByKey).containsKey(first));
        }

        admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        List<String> meanwhile = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          meanwhile.addAll(fx.insertTasks(c, 5, "while.deleted"));
        }

        await()
            .atMost(Duration.ofSeconds(90))
            .untilAsserted(() -> assertThat(admin.listTopics().names().get()).contains(topic));
        try (TopicReader after = new TopicReader(stack.bootstrapServers(), topic)) {
          await()
              .atMost(Duration.ofSeconds(90))
              .untilAsserted(() -> assertThat(after.firstByKey.keySet()).containsAll(meanwhile));
        }
        assertThat(TopicAdmin.partitions(admin, topic)).contains(3);
        var config =
            admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
        assertThat(config.get("retention.ms").value()).isEqualTo(RETENTION);
        assertThat(Integer.parseInt(config.get("max.message.bytes").value()))
            .isGreaterThanOrEqualTo(TopicAdmin.MAX_MESSAGE_BYTES);
        assertThat(relay.metricsText()).contains("tasklane_relay_topic_recreations_total 1.0");
        assertThat(relay.status().missingTopics()).isEmpty();
        assertThat(relay.status().deadLettered()).isZero();
        assertThat(relay.state()).isEqualTo(RelayState.STREAMING);
      }
    }
  }
}
