package io.tasklane.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.testkit.internal.Processes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;

/**
 * {@code LocalStackConfig.Builder.brokers(3)}: three KRaft broker+controller nodes with a 3-voter
 * quorum at Kafka's topic defaults; a node killed by id loses its leaderships and comes back; the
 * detached form ({@code bin/stack up --brokers 3}) is found again by an attaching JVM and {@code
 * down} stops every node.
 */
class ClusterStackTest {

  @Test
  void threeBrokersWithAQuorumSurviveTheLeadersKill() throws Exception {
    Path dir = Path.of("target", "cluster-stack-" + UUID.randomUUID().toString().substring(0, 8));
    try (LocalStack stack =
        LocalStack.start(
            LocalStackConfig.builder()
                .baseDir(dir)
                .deleteOnClose(true)
                .brokers(3)
                .kafkaHeap("384m")
                .build())) {
      assertThat(stack.kafkaBrokers()).isEqualTo(3);
      assertThat(stack.bootstrapServers().split(",")).hasSize(3);
      KafkaCluster cluster = stack.kafkaCluster().orElseThrow();
      assertThat(cluster.ids()).containsExactly(1, 2, 3);
      try (Admin admin = Admin.create(stack.kafkaAdminProperties())) {
        assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
        QuorumInfo quorum = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS);
        assertThat(quorum.voters()).hasSize(3);
        // Kafka's own defaults: a topic made without a replication factor gets 1
        admin
            .createTopics(
                List.of(
                    new NewTopic(
                        "defaulted", java.util.Optional.of(1), java.util.Optional.empty())))
            .all()
            .get(30, TimeUnit.SECONDS);
        // a new topic's metadata reaches every broker a moment after its creation returns
        org.awaitility.Awaitility.await()
            .atMost(Duration.ofSeconds(30))
            .ignoreExceptions()
            .untilAsserted(
                () ->
                    assertThat(
                            admin
                                .describeTopics(List.of("defaulted"))
                                .allTopicNames()
                                .get(30, TimeUnit.SECONDS)
                                .get("defaulted")
                                .partitions()
                                .get(0)
                                .replicas())
                        .hasSize(1));
        admin
            .createTopics(List.of(new NewTopic("replicated", 6, (short) 3)))
            .all()
            .get(30, TimeUnit.SECONDS);
      }
      cluster.awaitInSync(Duration.ofSeconds(60));
      assertThat(cluster.activeController()).isBetween(1, 3);

      int leader = cluster.leaderOfMostPartitions("replicated");
      cluster.kill(leader);
      assertThat(cluster.alive(leader)).isFalse();
      awaitNoLeadership(cluster, "replicated", leader);

      cluster.restart(leader);
      assertThat(cluster.alive(leader)).isTrue();
      cluster.awaitInSync(Duration.ofSeconds(90));
      assertThatThrownBy(() -> stack.restartKafka(Duration.ZERO))
          .isInstanceOf(LocalStackException.class)
          .hasMessageContaining("kafkaCluster()");
    }
  }

  @Test
  void detachedClusterIsFoundAgainAndStoppedByDown() {
    Path dir = Path.of("target", "cluster-up-" + UUID.randomUUID().toString().substring(0, 8));
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
    try {
      assertThat(StackMain.run(new String[] {"up", "--dir", dir.toString(), "--brokers", "3"}, out))
          .as(buffer.toString(StandardCharsets.UTF_8))
          .isZero();
      LocalStack attached = LocalStack.attach(dir.resolve("stack.properties"));
      assertThat(attached.kafkaBrokers()).isEqualTo(3);
      KafkaCluster cluster = attached.kafkaCluster().orElseThrow();
      assertThat(cluster.bootstrapServers()).isEqualTo(attached.bootstrapServers());
      List<Long> pids = cluster.ids().stream().map(cluster::pid).toList();
      assertThat(pids).allMatch(pid -> pid > 0);

      cluster.stop(2);
      assertThat(cluster.alive(2)).isFalse();
      assertThat(StackMain.run(new String[] {"status", "--dir", dir.toString()}, out)).isOne();
      cluster.restart(2);
      assertThat(KafkaCluster.attach(dir.resolve("kafka-cluster")).alive(2)).isTrue();
      attached.close(); // attached: leaves the servers running
      assertThat(StackMain.run(new String[] {"status", "--dir", dir.toString()}, out)).isZero();

      assertThat(StackMain.run(new String[] {"down", "--dir", dir.toString()}, out)).isZero();
      for (int id : List.of(1, 2, 3)) {
        assertThat(KafkaCluster.attach(dir.resolve("kafka-cluster")).alive(id)).isFalse();
      }
    } finally {
      StackMain.run(new String[] {"down", "--dir", dir.toString()}, out);
      io.tasklane.testkit.internal.Dirs.deleteRecursively(dir.toAbsolutePath());
    }
  }

  private static void awaitNoLeadership(KafkaCluster cluster, String topic, int gone) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      List<TopicPartitionInfo> partitions =
          cluster.describe(List.of(topic)).get(topic).partitions();
      boolean moved =
          partitions.stream()
              .allMatch(
                  p -> p.leader() != null && !p.leader().isEmpty() && p.leader().id() != gone);
      if (moved) {
        return;
      }
      assertThat(System.nanoTime())
          .as("leadership of %s still on node %d", topic, gone)
          .isLessThan(deadline);
      Processes.pause(250);
    }
  }
}
