package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.TaskState;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scheduler of this version starts on the changelogs a 0.1.0 scheduler left ({@link
 * UpgradeFixture}, captured from that release by {@link UpgradeFixtureCapture}) with no local
 * state, restores them and keeps every task: delayed, dispatched, waiting on dependencies,
 * finished, cancelled and without a handler topic; the search by state and the counts find them;
 * and the tasks go on (the dispatched ones succeed when answered, a waiting one follows its
 * dependency, the others stay as they were).
 */
@TasklaneStack
class UpgradeTest {
  @TempDir Path dir;

  @Test
  void schedulerOfThisVersionKeepsEveryTaskA010SchedulerLeft(LocalStack stack) throws Exception {
    String release = "0.1.0";
    Topics topics = StackSupport.uniqueTopics();
    String app = topics.namespace() + "-scheduler";
    restore(stack, topics, app, release);
    int port = SchedulerProcess.freePort();
    Map<String, TaskState> expected = UpgradeFixture.expected();
    try (JavaProcess scheduler =
        SchedulerProcess.start(stack, topics, dir, "upgraded", port, Map.of())) {
      SchedulerProcess.awaitUp(scheduler, port);
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                for (Map.Entry<String, TaskState> e : expected.entrySet()) {
                  assertThat(state(port, e.getKey())).as(e.getKey()).isEqualTo(e.getValue().name());
                }
              });
      JsonNode delayed = task(port, "delayed-1");
      assertThat(delayed.path("dueAt").asLong()).isEqualTo(UpgradeFixture.FAR);
      assertThat(delayed.path("waiters").path(0).path("id").asText())
          .isEqualTo(UpgradeFixture.id("waiting-2"));
      assertThat(task(port, "dead-1").path("lastError").path("type").asText()).isEqualTo("Fixture");
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                JsonNode counts = json(port, "/api/tasks/counts");
                assertThat(SearchApiTest.count(counts, UpgradeFixture.WORK, "PENDING"))
                    .isEqualTo(UpgradeFixture.BULK + 2);
                assertThat(SearchApiTest.count(counts, UpgradeFixture.WORK, "DISPATCHED"))
                    .isEqualTo(3);
                assertThat(SearchApiTest.count(counts, UpgradeFixture.WORK, "WAITING"))
                    .isEqualTo(2);
                assertThat(
                        SearchApiTest.all(
                            port, "state=PENDING&handler=" + UpgradeFixture.WORK + "&limit=100"))
                    .hasSize(UpgradeFixture.BULK + 2);
              });

      // The tasks go on: the old dispatches are answered, and so is the waiting task's.
      try (FakeWorker worker =
          new FakeWorker(stack.bootstrapServers(), topics, UpgradeFixture.WORK)) {
        await()
            .atMost(Duration.ofSeconds(90))
            .untilAsserted(
                () -> {
                  for (String name : List.of("dispatched-1", "dispatched-2", "dispatched-3")) {
                    assertThat(state(port, name)).as(name).isEqualTo("SUCCEEDED");
                  }
                  assertThat(state(port, "waiting-1")).isEqualTo("SUCCEEDED");
                });
        assertThat(state(port, "waiting-2")).isEqualTo("WAITING");
        assertThat(state(port, "delayed-1")).isEqualTo("PENDING");
        assertThat(state(port, "succeeded-1")).isEqualTo("SUCCEEDED");
      }
    }
  }

  /**
   * Creates the scheduler's changelog topics for application {@code app} and writes the fixture's
   * records into them, each to its partition; and the old dispatches into the handler topic.
   */
  private static void restore(LocalStack stack, Topics topics, String app, String release)
      throws Exception {
    List<NewTopic> create = new ArrayList<>();
    for (String store : UpgradeFixture.STORES.get(release)) {
      create.add(
          new NewTopic(app + "-" + store + "-changelog", UpgradeFixture.PARTITIONS, (short) 1)
              .configs(Map.of("cleanup.policy", "compact")));
    }
    create.add(new NewTopic(topics.handler(UpgradeFixture.WORK), 1, (short) 1));
    create.add(new NewTopic(topics.handlerDlt(UpgradeFixture.WORK), 1, (short) 1));
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      admin.createTopics(create).all().get(30, TimeUnit.SECONDS);
      List<String> names = create.stream().map(NewTopic::name).toList();
      // every partition led before the first record: a produce to a partition whose leader is not
      // known yet fails, and the idempotent producer's retries of it can fail for good
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  admin
                      .describeTopics(names)
                      .allTopicNames()
                      .get(10, TimeUnit.SECONDS)
                      .values()
                      .forEach(
                          d ->
                              d.partitions()
                                  .forEach(
                                      pi -> assertThat(pi.leader()).as(d.name()).isNotNull())));
    }
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    Map<String, String> topicOf = new HashMap<>();
    for (String store : UpgradeFixture.STORES.get(release)) {
      topicOf.put(store, app + "-" + store + "-changelog");
    }
    topicOf.put("handler", topics.handler(UpgradeFixture.WORK));
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      List<UpgradeFixture.Line> lines =
          new ArrayList<>(UpgradeFixture.read(release, "changelogs.jsonl"));
      lines.addAll(UpgradeFixture.read(release, "dispatches.jsonl"));
      for (UpgradeFixture.Line l : lines) { // one at a time: each partition's records in order
        producer
            .send(
                new ProducerRecord<>(
                    topicOf.get(l.topic()), l.partition(), l.timestamp(), l.key(), l.value()))
            .get(30, TimeUnit.SECONDS);
      }
    }
  }

  private static String state(int port, String name) throws Exception {
    HttpResponse<String> r =
        StackSupport.get(port, "/api/tasks/" + UpgradeFixture.id(name), VIEWER);
    return r.statusCode() == 200
        ? WireCodec.readTree(r.body()).path("state").asText()
        : "" + r.statusCode();
  }

  private static JsonNode task(int port, String name) throws Exception {
    return json(port, "/api/tasks/" + UpgradeFixture.id(name));
  }

  private static JsonNode json(int port, String path) throws Exception {
    HttpResponse<String> r = StackSupport.get(port, path, VIEWER);
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return WireCodec.readTree(r.body());
  }
}
