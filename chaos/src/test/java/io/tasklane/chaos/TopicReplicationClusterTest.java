package io.tasklane.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.ReplicationCheck;
import io.tasklane.core.TopicAdmin;
import io.tasklane.core.TopicReplication;
import io.tasklane.core.UnsafeReplicationException;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.KafkaCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Topic replication on a real three-broker KRaft cluster left at Kafka's own topic defaults
 * (replication factor 1, min ISR 1): what Tasklane creates is replicated three times with a min ISR
 * of 2 because Tasklane asks for it, and an existing single-replica topic refuses the start.
 */
class TopicReplicationClusterTest {
  private static KafkaCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = KafkaCluster.start(Files.createTempDirectory("tasklane-cluster-"), 3, "384m");
    // the replication defaults count the brokers registered now: wait until all three are
    try (Admin admin = cluster.admin()) {
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(60))
          .until(() -> admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size() == 3);
    }
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void createdTopicsFollowTheClusterNotTheBrokerDefault() throws Exception {
    String name = "rf-" + UUID.randomUUID();
    try (Admin admin = cluster.admin()) {
      TopicAdmin.ensure(admin, List.of(TopicAdmin.Spec.of(name, 3)));

      TopicDescription d = cluster.describe(List.of(name)).get(name);
      assertThat(d.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
      assertThat(minIsr(admin, name)).isEqualTo("2");
    }
  }

  @Test
  void anExistingSingleReplicaTopicRefusesTheStartNamingTopicAndFix() throws Exception {
    String name = "unsafe-" + UUID.randomUUID();
    try (Admin admin = cluster.admin()) {
      // as a broker left at default.replication.factor=1 would make it
      admin.createTopics(List.of(new NewTopic(name, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);

      assertThatThrownBy(() -> TopicAdmin.ensure(admin, List.of(TopicAdmin.Spec.of(name, 3))))
          .isInstanceOf(UnsafeReplicationException.class)
          .hasMessageContaining("topic " + name + " has 1 replica on a cluster of 3 brokers")
          .hasMessageContaining("kafka-reassign-partitions.sh")
          .hasMessageContaining(TopicReplication.ALLOW_UNSAFE_KEY);

      // told so explicitly, it runs (with a warning)
      TopicAdmin.ensure(
          admin,
          List.of(TopicAdmin.Spec.of(name, 3)),
          new TopicReplication(TopicReplication.AUTO, TopicReplication.AUTO, true));
    }
  }

  @Test
  void minIsrOneWithThreeReplicasIsRefusedToo() throws Exception {
    String name = "isr-" + UUID.randomUUID();
    try (Admin admin = cluster.admin()) {
      admin
          .createTopics(
              List.of(new NewTopic(name, 1, (short) 3).configs(Map.of("min.insync.replicas", "1"))))
          .all()
          .get(30, TimeUnit.SECONDS);

      // a new topic's metadata reaches every broker a moment after its creation
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(ReplicationCheck.unsafe(admin, List.of(name), 3))
                      .singleElement()
                      .asString()
                      .contains("min.insync.replicas=1")
                      .contains("--add-config min.insync.replicas=2"));
    }
  }

  @Test
  void aFactorAboveTheLiveBrokersIsAClearError() throws Exception {
    String name = "toomany-" + UUID.randomUUID();
    try (Admin admin = cluster.admin()) {
      assertThatThrownBy(
              () ->
                  TopicAdmin.ensure(
                      admin,
                      List.of(TopicAdmin.Spec.of(name, 1)),
                      new TopicReplication(5, TopicReplication.AUTO, false)))
          .hasMessageContaining("with 5 replicas: the cluster has 3 live broker(s)")
          .hasMessageContaining(TopicReplication.FACTOR_KEY);
    }
  }

  @Test
  void aSchedulerRefusesToStartOnASingleReplicaResultsTopic() throws Exception {
    String ns = "refuse" + UUID.randomUUID().toString().substring(0, 8);
    try (Admin admin = cluster.admin()) {
      admin
          .createTopics(List.of(new NewTopic(ns + ".results", 6, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    Path run = Files.createTempDirectory("tasklane-refuse-");
    TasklaneApps apps =
        TasklaneApps.builder()
            .home(Path.of("").toAbsolutePath().getParent())
            .runDir(run)
            .database("jdbc:mariadb://127.0.0.1:1/unused", "unused", "unused")
            .bootstrap(cluster.bootstrapServers())
            .namespace(ns)
            .build();
    try (JavaProcess scheduler = apps.scheduler("scheduler-refused", FreePorts.next()).start()) {
      assertThat(scheduler.waitFor(Duration.ofMinutes(2)))
          .as("exit code; log: %s", scheduler.logTail(40))
          .isNotIn(0, -1);
      assertThat(Files.readString(scheduler.logFile()))
          .contains("refusing to run on topics that a single broker loss can empty")
          .contains("topic " + ns + ".results has 1 replica on a cluster of 3 brokers")
          .contains("kafka-reassign-partitions.sh");
    }
  }

  static String minIsr(Admin admin, String topic) throws Exception {
    ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    return admin
        .describeConfigs(List.of(r))
        .all()
        .get(30, TimeUnit.SECONDS)
        .get(r)
        .get("min.insync.replicas")
        .value();
  }
}
