package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

@TasklaneStack
class TopicAdminTest {

  @Test
  void createdTopicsCarryAMessageLimitAboveTheLargestTask(LocalStack stack) throws Exception {
    Topics topics = new Topics("t" + UUID.randomUUID().toString().substring(0, 8));
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      TopicAdmin.ensure(
          admin,
          List.of(
              TopicAdmin.Spec.of(topics.tasks(), 2),
              TopicAdmin.Spec.compacted(topics.relayOffsets(), 1)));
      assertThat(maxMessageBytes(admin, topics.tasks())).isEqualTo(TopicAdmin.MAX_MESSAGE_BYTES);
      assertThat(maxMessageBytes(admin, topics.relayOffsets()))
          .isEqualTo(TopicAdmin.MAX_MESSAGE_BYTES);
    }
    assertThat(TopicAdmin.MAX_MESSAGE_BYTES)
        .isGreaterThan(TaskLimits.MAX_RECORD_BYTES)
        .isGreaterThan(TaskLimits.HARD_MAX_PAYLOAD_BYTES + 64 * 1024);
  }

  @Test
  void anExistingTopicWithASmallerLimitIsRaisedAndALargerOneKept(LocalStack stack)
      throws Exception {
    Topics topics = new Topics("t" + UUID.randomUUID().toString().substring(0, 8));
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(topics.tasks(), Optional.of(1), Optional.empty())
                      .configs(Map.of("max.message.bytes", "100000")),
                  new NewTopic(topics.results(), Optional.of(1), Optional.empty())
                      .configs(Map.of("max.message.bytes", "5000000"))))
          .all()
          .get(30, TimeUnit.SECONDS);
      TopicAdmin.ensure(
          admin,
          List.of(TopicAdmin.Spec.of(topics.tasks(), 1), TopicAdmin.Spec.of(topics.results(), 1)));
      assertThat(maxMessageBytes(admin, topics.tasks())).isEqualTo(TopicAdmin.MAX_MESSAGE_BYTES);
      assertThat(maxMessageBytes(admin, topics.results())).isEqualTo(5_000_000);
    }
  }

  private static int maxMessageBytes(Admin admin, String topic) throws Exception {
    var resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    var config =
        admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
    return Integer.parseInt(config.get("max.message.bytes").value());
  }
}
