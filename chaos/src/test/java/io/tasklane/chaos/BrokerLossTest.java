package io.tasklane.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.chaos.internal.Cluster;
import io.tasklane.chaos.internal.Ledger;
import io.tasklane.chaos.internal.Load;
import io.tasklane.chaos.internal.Probe;
import io.tasklane.chaos.internal.ReplicatedTopics;
import io.tasklane.chaos.internal.Verifier;
import io.tasklane.core.Topics;
import io.tasklane.examples.orders.DemoSchema;
import io.tasklane.harness.Database;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.testkit.KafkaCluster;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline (relay, two schedulers, two workers) on a real three-broker KRaft cluster left
 * at Kafka's own topic defaults (replication factor 1, min ISR 1): every topic Tasklane and its
 * Kafka Streams make is replicated three times with a min ISR of 2, and a kill -9 of the broker
 * leading the most task partitions under load, restarted later, loses no task and doubles no
 * effect. The outbox lives on the shared stack's MariaDB; the shared broker is not used.
 */
@TasklaneStack
class BrokerLossTest {
  private static final Path HOME = Path.of("").toAbsolutePath().getParent();

  @Test
  void aLeaderBrokerKilledUnderLoadLosesNothingAndEveryTopicIsReplicated(
      LocalStack stack, @TempDir Path dir) throws Exception {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String namespace = "rf" + suffix;
    Database db = Database.create(stack, "tasklane_rf_" + suffix, DemoSchema::create);
    try (KafkaCluster kafka = KafkaCluster.start(dir.resolve("kafka"), 3, "384m")) {
      TasklaneApps apps =
          TasklaneApps.builder()
              .home(HOME)
              .runDir(dir)
              .database(db.url(), db.user(), db.password())
              .bootstrap(kafka.bootstrapServers())
              .namespace(namespace)
              .build();
      try (Cluster cluster = new Cluster(apps, FreePorts.next(), FreePorts.next())) {
        cluster.startAll();
        Ledger ledger = new Ledger();
        Probe probe = new Probe(db, ledger);
        assertThat(probe.await(System.nanoTime(), Duration.ofMinutes(4)))
            .as("pipeline up; logs in %s", apps.logs())
            .isNotNegative();

        try (Load load = new Load(db, ledger, 100, 7)) {
          load.start();
          await().atMost(Duration.ofMinutes(1)).until(() -> ledger.committedCount() >= 500);
          int victim = kafka.leaderOfMostPartitions(new Topics(namespace).tasks());
          kafka.kill(victim);
          System.out.printf("killed broker %d (leading the most task partitions)%n", victim);
          int atKill = ledger.committedCount();
          await()
              .atMost(Duration.ofMinutes(1))
              .until(() -> ledger.committedCount() >= atKill + 800);
          kafka.restart(victim);
          awaitInSync(kafka, namespace);
          // a second broker lost for good: the cluster runs on 2 of 3 to the end
          int second = victim % 3 + 1;
          kafka.kill(second);
          System.out.printf(
              "broker %d back in sync; killed broker %d, left down%n", victim, second);
          int atSecond = ledger.committedCount();
          await()
              .atMost(Duration.ofMinutes(1))
              .until(() -> ledger.committedCount() >= atSecond + 500);
        }

        Verifier verifier = new Verifier(db, ledger);
        await()
            .atMost(Duration.ofMinutes(4))
            .pollInterval(Duration.ofSeconds(2))
            .until(
                () -> {
                  Map<String, Integer> effects = verifier.effects();
                  return verifier.missing(verifier.committed(effects), effects) == 0;
                });
        Map<String, Integer> effects = verifier.effects();
        Set<String> committed = verifier.committed(effects);
        assertThat(committed.size()).isGreaterThan(1500);
        assertThat(verifier.missing(committed, effects)).as("lost tasks").isZero();
        assertThat(Verifier.duplicates(effects)).as("duplicate effects").isZero();
        assertThat(cluster.unexpectedExits()).as("apps that exited by themselves").isZero();
        System.out.printf(
            "%d tasks committed, %d lost, %d duplicate effects%n",
            committed.size(), verifier.missing(committed, effects), Verifier.duplicates(effects));

        assertEveryTopicReplicated(kafka, namespace);
        // broker `second` is still down: the schedulers warn of under-replicated partitions
        int port = cluster.schedulerPorts().get(0);
        await()
            .atMost(Duration.ofMinutes(1))
            .pollInterval(Duration.ofSeconds(1))
            .untilAsserted(
                () -> {
                  String health =
                      java.net.http.HttpClient.newHttpClient()
                          .send(
                              java.net.http.HttpRequest.newBuilder(
                                      java.net.URI.create("http://127.0.0.1:" + port + "/health"))
                                  .header("Authorization", "Bearer " + TasklaneApps.TOKEN)
                                  .build(),
                              java.net.http.HttpResponse.BodyHandlers.ofString())
                          .body();
                  assertThat(health)
                      .contains("kafka-replication")
                      .contains("under-replicated partitions (a broker is down or behind)")
                      .doesNotContain("\"underReplicatedPartitions\":0");
                });
      }
    }
  }

  /** Waits until every partition of the namespace's topics has all its replicas in sync. */
  private static void awaitInSync(KafkaCluster kafka, String namespace) {
    await()
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions()
        .until(
            () -> {
              try (Admin admin = kafka.admin()) {
                List<String> ours = ours(admin, namespace);
                return kafka.describe(ours).values().stream()
                    .flatMap(d -> d.partitions().stream())
                    .allMatch(p -> p.isr().size() == p.replicas().size());
              }
            });
  }

  private static List<String> ours(Admin admin, String namespace) throws Exception {
    return admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
        .filter(n -> n.startsWith(namespace + ".") || n.startsWith(namespace + "-scheduler-"))
        .sorted()
        .toList();
  }

  /** Every topic of the namespace and of the schedulers' Streams app: 3 replicas, min ISR 2. */
  private static void assertEveryTopicReplicated(KafkaCluster kafka, String namespace)
      throws Exception {
    try (Admin admin = kafka.admin()) {
      List<String> ours = ours(admin, namespace);
      assertThat(ours)
          .as("tasks, results, handler topics and changelogs")
          .contains(new Topics(namespace).tasks(), new Topics(namespace).results())
          .anyMatch(n -> n.endsWith("-changelog"))
          .anyMatch(n -> n.startsWith(namespace + ".handler."));
    }
    assertThat(ReplicatedTopics.unsafe(kafka, namespace))
        .as("topics not at RF 3 / min ISR 2")
        .isEmpty();
  }
}
