package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskResult;
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
import java.util.function.Predicate;
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
 * dependency, the others stay as they were); a schedule defined after the upgrade fires (0.1.0 had
 * no schedules).
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

        // 0.1.0 had no schedules: their stores are new, and a schedule defined now fires.
        ScheduleDefinition d =
            ScheduleDefinition.builder()
                .name("up.after")
                .version(1)
                .handler(UpgradeFixture.WORK)
                .every("1s")
                .build();
        try (KafkaProducer<String, byte[]> producer =
            StackSupport.producer(stack.bootstrapServers())) {
          producer
              .send(new ProducerRecord<>(topics.tasks(), d.name(), WireCodec.encode(d)))
              .get(10, TimeUnit.SECONDS);
        }
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () ->
                    assertThat(
                            fires(
                                schedule(port, d.name()),
                                f -> f.path("outcome").asText().equals("SUCCEEDED")))
                        .isNotEmpty());
      }
    }
  }

  /**
   * 0.1.0 had no schedules; the schedules an earlier scheduler stored in the JSON form ({@link
   * UpgradeFixture#SCHEDULES}, captured by {@link ScheduleUpgradeFixtureCapture}) are kept with
   * their history by a scheduler of this version, which writes them in its binary form at their
   * next change: the ALLOW schedule's finished fires (SUCCEEDED and one DEAD), the SKIP_IF_RUNNING
   * schedule's running fire (it finishes when answered) and its skipped ones, the paused schedule
   * (it stays paused), the deleted one (it stays deleted), the one whose next fire is years away;
   * and the active ones fire again, their fires dispatched and answered.
   */
  @Test
  void schedulerOfThisVersionKeepsSchedulesAndTheirHistoryStoredAsJson(LocalStack stack)
      throws Exception {
    String fixture = UpgradeFixture.SCHEDULES;
    List<UpgradeFixture.Line> lines = UpgradeFixture.read(fixture, "changelogs.jsonl");
    // the fixture holds states and logged fires of the JSON form, or this test would prove nothing
    assertThat(firstBytes(lines, "tasklane-schedules")).isNotEmpty().containsOnly((byte) '{');
    assertThat(firstBytes(lines, "tasklane-schedule-fires")).isNotEmpty().containsOnly((byte) '{');
    long capturedAt = lines.stream().mapToLong(UpgradeFixture.Line::timestamp).max().orElseThrow();
    List<Dispatch> running =
        UpgradeFixture.read(fixture, "dispatches.jsonl").stream()
            .map(l -> WireCodec.decodeDispatch(l.value()))
            .filter(
                d -> UpgradeFixture.SKIP.equals(d.task().headers().get(ReservedHeaders.SCHEDULE)))
            .toList();
    assertThat(running).as("the SKIP_IF_RUNNING schedule's one fire").hasSize(1);
    String runningFire = running.get(0).task().headers().get(ReservedHeaders.FIRE_ID);
    Topics topics = StackSupport.uniqueTopics();
    String app = topics.namespace() + "-scheduler";
    restore(stack, topics, app, fixture, UpgradeFixture.SCHED, false);
    int port = SchedulerProcess.freePort();
    try (JavaProcess scheduler =
            SchedulerProcess.start(stack, topics, dir, "upgraded", port, Map.of());
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers())) {
      SchedulerProcess.awaitUp(scheduler, port);
      String[] watched = {null};
      // As the earlier scheduler left them, before any worker answers.
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                JsonNode every = schedule(port, UpgradeFixture.EVERY);
                assertThat(every.path("definition").path("every").asText()).isEqualTo("2s");
                assertThat(every.path("definition").path("overlap").asText()).isEqualTo("ALLOW");
                assertThat(every.path("definition").path("handler").asText())
                    .isEqualTo(UpgradeFixture.SCHED);
                assertThat(every.path("enabled").asBoolean()).isTrue();
                List<JsonNode> old = fires(every, f -> f.path("fireAt").asLong() <= capturedAt);
                assertThat(outcomes(old, "SUCCEEDED"))
                    .as(every.toString())
                    .isGreaterThanOrEqualTo(UpgradeFixture.SUCCEEDED_FIRES);
                List<JsonNode> dead = fires(every, f -> f.path("outcome").asText().equals("DEAD"));
                assertThat(dead).as(every.toString()).hasSize(1);
                assertThat(dead.get(0).path("tasks").path(0).path("state").asText())
                    .isEqualTo("DEAD");

                JsonNode skip = schedule(port, UpgradeFixture.SKIP);
                assertThat(skip.path("definition").path("overlap").asText())
                    .isEqualTo("SKIP_IF_RUNNING");
                JsonNode fire = fire(skip, runningFire);
                // the watched fire is kept: running, unless its task's attempt timed out (the
                // schedule's default 5 minutes) between the capture and this run, which makes it
                // DEAD at the first tick; a fixture is older than that in every run but the first
                String outcome = fire.path("outcome").asText();
                if (System.currentTimeMillis() - capturedAt < TaskEnvelope.DEFAULT_TIMEOUT_MS) {
                  assertThat(outcome).as(skip.toString()).isIn("RUNNING", "DEAD");
                } else {
                  assertThat(outcome).as(skip.toString()).isEqualTo("DEAD");
                }
                watched[0] = outcome;
                assertThat(fire.path("tasks").path(0).path("id").asText())
                    .isEqualTo(running.get(0).id());
                assertThat(UpgradeFixture.outcomes(skip, "SKIPPED")).isGreaterThanOrEqualTo(1);

                assertPaused(schedule(port, UpgradeFixture.PAUSED), capturedAt);
                assertDeleted(port);
                JsonNode leap = schedule(port, UpgradeFixture.FAR_CRON);
                assertThat(leap.path("definition").path("cron").asText())
                    .isEqualTo(UpgradeFixture.LEAP);
                assertThat(leap.path("nextFireAt").asLong()).isEqualTo(nextLeapDay());
                assertThat(leap.path("fires")).isEmpty();
              });

      // The running fire is answered, and the active schedules fire again on this version.
      Dispatch d = running.get(0);
      long now = System.currentTimeMillis();
      producer
          .send(
              new ProducerRecord<>(
                  topics.results(),
                  d.routingKey(),
                  WireCodec.encode(
                      TaskResult.succeeded(d.id(), d.attempt(), now, now, "upgrade").answering(d))))
          .get(10, TimeUnit.SECONDS);
      try (FakeWorker worker =
          new FakeWorker(stack.bootstrapServers(), topics, UpgradeFixture.SCHED)) {
        await()
            .atMost(Duration.ofSeconds(90))
            .untilAsserted(
                () -> {
                  for (String name : List.of(UpgradeFixture.EVERY, UpgradeFixture.SKIP)) {
                    JsonNode s = schedule(port, name);
                    assertThat(
                            fires(
                                s,
                                f ->
                                    f.path("fireAt").asLong() > capturedAt
                                        && f.path("outcome").asText().equals("SUCCEEDED")))
                        .as(name + " fired, dispatched and answered on this version: " + s)
                        .isNotEmpty();
                    assertThat(
                            worker.received.stream()
                                .filter(
                                    x ->
                                        name.equals(
                                            x.task().headers().get(ReservedHeaders.SCHEDULE))))
                        .as(name + "'s fires dispatched")
                        .isNotEmpty();
                  }
                  assertThat(worker.received)
                      .noneMatch(
                          x ->
                              UpgradeFixture.PAUSED.equals(
                                  x.task().headers().get(ReservedHeaders.SCHEDULE)));
                  assertThat(
                          fire(schedule(port, UpgradeFixture.SKIP), runningFire)
                              .path("outcome")
                              .asText())
                      .as("the watched fire, answered while it ran, or timed out before")
                      .isEqualTo(watched[0].equals("RUNNING") ? "SUCCEEDED" : "DEAD");
                });
      }
      // The history made before the upgrade is still there; the paused and the deleted stayed.
      JsonNode every = schedule(port, UpgradeFixture.EVERY);
      assertThat(outcomes(fires(every, f -> f.path("fireAt").asLong() <= capturedAt), "SUCCEEDED"))
          .isGreaterThanOrEqualTo(UpgradeFixture.SUCCEEDED_FIRES);
      assertThat(fires(every, f -> f.path("outcome").asText().equals("DEAD"))).hasSize(1);
      assertPaused(schedule(port, UpgradeFixture.PAUSED), capturedAt);
      assertDeleted(port);

      // This version wrote the active schedule's state and its fires in the binary form.
      Map<String, byte[]> newest = newest(stack, app + "-tasklane-schedules-changelog");
      assertThat(newest.get(UpgradeFixture.EVERY)).isNotNull();
      assertThat(newest.get(UpgradeFixture.EVERY)[0])
          .as("first byte of the state written after the upgrade")
          .isNotEqualTo((byte) '{');
      Map<String, byte[]> fires = newest(stack, app + "-tasklane-schedule-fires-changelog");
      byte[] fireValue =
          fires.entrySet().stream()
              .filter(e -> e.getKey().startsWith(UpgradeFixture.EVERY + "\u0000"))
              .reduce((a, b) -> b)
              .map(Map.Entry::getValue)
              .orElseThrow();
      assertThat(fireValue[0])
          .as("first byte of a fire logged after the upgrade")
          .isNotEqualTo((byte) '{');
    }
  }

  private static void assertPaused(JsonNode paused, long capturedAt) {
    assertThat(paused.path("paused").asBoolean()).as(paused.toString()).isTrue();
    assertThat(paused.path("enabled").asBoolean()).isFalse();
    assertThat(paused.path("version").asLong()).isEqualTo(2);
    assertThat(paused.path("nextFireAt").asLong()).isEqualTo(-1);
    assertThat(UpgradeFixture.outcomes(paused, "SUCCEEDED")).isGreaterThanOrEqualTo(1);
    // each fire due while paused makes no task and is recorded SKIPPED (paused)
    assertThat(fires(paused, f -> f.path("fireAt").asLong() > capturedAt))
        .allSatisfy(
            f -> {
              assertThat(f.path("outcome").asText()).isEqualTo("SKIPPED");
              assertThat(f.path("reason").asText()).isEqualTo("paused");
              assertThat(f.path("tasks")).isEmpty();
            });
  }

  private static void assertDeleted(int port) throws Exception {
    JsonNode deleted = schedule(port, UpgradeFixture.DELETED);
    assertThat(deleted.path("deleted").asBoolean()).as(deleted.toString()).isTrue();
    assertThat(deleted.has("definition")).isFalse();
  }

  /** 00:00 UTC of the next 29 February: the next fire of {@link UpgradeFixture#LEAP}. */
  private static long nextLeapDay() {
    int year = java.time.LocalDate.now(java.time.ZoneOffset.UTC).getYear();
    while (true) {
      if (java.time.Year.isLeap(year)) {
        long at =
            java.time.LocalDate.of(year, 2, 29)
                .atStartOfDay(java.time.ZoneOffset.UTC)
                .toInstant()
                .toEpochMilli();
        if (at > System.currentTimeMillis()) {
          return at;
        }
      }
      year++;
    }
  }

  private static JsonNode schedule(int port, String name) throws Exception {
    return json(port, "/api/schedules/" + name);
  }

  private static List<JsonNode> fires(JsonNode schedule, Predicate<JsonNode> which) {
    List<JsonNode> out = new ArrayList<>();
    schedule
        .path("fires")
        .forEach(
            f -> {
              if (which.test(f)) {
                out.add(f);
              }
            });
    return out;
  }

  private static long outcomes(List<JsonNode> fires, String outcome) {
    return fires.stream().filter(f -> f.path("outcome").asText().equals(outcome)).count();
  }

  private static JsonNode fire(JsonNode schedule, String fireId) {
    List<JsonNode> f = fires(schedule, x -> x.path("fireId").asText().equals(fireId));
    assertThat(f).as("fire " + fireId + " of " + schedule).hasSize(1);
    return f.get(0);
  }

  /** The first byte of each value of {@code store} in the fixture (tombstones left out). */
  private static List<Byte> firstBytes(List<UpgradeFixture.Line> lines, String store) {
    return lines.stream()
        .filter(l -> l.topic().equals(store) && l.value() != null && l.value().length > 0)
        .map(l -> l.value()[0])
        .toList();
  }

  /** The newest value of each key of {@code topic} (keys as UTF-8 text), read from the start. */
  private static Map<String, byte[]> newest(LocalStack stack, String topic) {
    Map<String, byte[]> out = new java.util.LinkedHashMap<>();
    for (var r : UpgradeFixtureCapture.all(stack.bootstrapServers(), topic)) {
      if (r.key() != null && r.value() != null) {
        String key = new String(r.key(), java.nio.charset.StandardCharsets.ISO_8859_1);
        out.remove(key);
        out.put(key, r.value());
      }
    }
    return out;
  }

  /**
   * Creates the scheduler's changelog topics for application {@code app} and writes the fixture's
   * records into them, each to its partition; and the old dispatches into the handler topic.
   */
  private static void restore(LocalStack stack, Topics topics, String app, String release)
      throws Exception {
    restore(stack, topics, app, release, UpgradeFixture.WORK, true);
  }

  /**
   * Creates the scheduler's changelog topics of fixture {@code release} for application {@code app}
   * and writes the fixture's records into them, each to its partition; creates {@code handler}'s
   * topics and, when {@code dispatches}, writes the old dispatches into its topic.
   */
  static void restore(
      LocalStack stack,
      Topics topics,
      String app,
      String release,
      String handler,
      boolean dispatches)
      throws Exception {
    List<NewTopic> create = new ArrayList<>();
    for (String store : UpgradeFixture.STORES.get(release)) {
      create.add(
          new NewTopic(app + "-" + store + "-changelog", UpgradeFixture.PARTITIONS, (short) 1)
              .configs(Map.of("cleanup.policy", "compact")));
    }
    create.add(new NewTopic(topics.handler(handler), 1, (short) 1));
    create.add(new NewTopic(topics.handlerDlt(handler), 1, (short) 1));
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
    topicOf.put("handler", topics.handler(handler));
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      List<UpgradeFixture.Line> lines =
          new ArrayList<>(UpgradeFixture.read(release, "changelogs.jsonl"));
      if (dispatches) {
        lines.addAll(UpgradeFixture.read(release, "dispatches.jsonl"));
      }
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
