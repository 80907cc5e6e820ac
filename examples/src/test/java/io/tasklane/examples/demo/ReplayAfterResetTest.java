package io.tasklane.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.Outcome;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.examples.launch.ExampleWorker;
import io.tasklane.examples.orders.DemoSchema;
import io.tasklane.examples.orders.OrderRef;
import io.tasklane.examples.orders.ScenarioHandlers;
import io.tasklane.harness.FreePorts;
import io.tasklane.harness.TasklaneApps;
import io.tasklane.outbox.JdbcTaskOutbox;
import io.tasklane.outbox.TaskRequest;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Replays after an operator's reset, with relay, scheduler and worker as separate JVMs: N tasks run
 * to SUCCEEDED (each handler writes one effect row in the idempotency store's transaction); then
 * (a) the worker's consumer group is reset to the earliest offsets of its handler topic while the
 * worker is stopped: every dispatch is delivered again and no handler runs again; (b) the scheduler
 * is reset as Kafka's streams application reset tool would (state dir, internal topics, committed
 * offsets deleted): it re-reads {@code <ns>.tasks} from the start and dispatches again, the worker
 * acknowledges without running, and every task ends SUCCEEDED. Effect rows stay N throughout.
 */
@TasklaneStack
class ReplayAfterResetTest {
  private static final int N = 50;
  private static final String HANDLER = ScenarioHandlers.REMINDER;

  @Test
  void workerAndSchedulerResetsRedeliverEveryTaskWithoutRunningAnyHandlerTwice(LocalStack stack)
      throws Exception {
    String run = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    String ns = "reset" + run;
    Topics topics = new Topics(ns);
    String url = stack.createDatabase("tasklane_reset_" + run);
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
      DemoSchema.create(c);
    }
    Path home = Path.of("").toAbsolutePath().getParent();
    Path runDir = home.resolve("examples/target/replay-reset-" + run);
    var apps =
        TasklaneApps.builder().home(home).runDir(runDir).stack(stack, url).namespace(ns).build();
    String handlerTopic = topics.handler(HANDLER);
    String workerGroup = ns + "-worker." + HANDLER;
    String applicationId = ns + "-scheduler";
    int port = FreePorts.next();
    List<JavaProcess> processes = new ArrayList<>();
    ResultCounter results = null;
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      processes.add(apps.relay("relay").start());
      JavaProcess scheduler = track(processes, apps.scheduler("scheduler", port).start());
      JavaProcess worker = track(processes, ExampleWorker.recipe(apps, "worker", false).start());

      List<String> ids = new ArrayList<>();
      try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password())) {
        c.setAutoCommit(false);
        for (int i = 0; i < N; i++) {
          ids.add(
              JdbcTaskOutbox.of(c)
                  .enqueue(TaskRequest.to(HANDLER).payload(new OrderRef(i)).key("replay-" + i)));
        }
        c.commit();
      }
      awaitAllSucceeded(port, ids, processes);
      assertThat(effects(url, stack)).isEqualTo(N);
      results = new ResultCounter(stack.bootstrapServers(), topics.results()); // exists by now
      ResultCounter counted = results;
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(() -> assertThat(counted.fewestSince(Map.of(), ids)).isPositive());

      // (a) the worker's group back to the earliest offsets of its handler topic
      Map<String, Integer> beforeWorkerReset = results.snapshot();
      stop(processes, worker);
      Map<TopicPartition, Long> earliest = offsets(admin, handlerTopic, OffsetSpec.earliest());
      Map<TopicPartition, Long> end = offsets(admin, handlerTopic, OffsetSpec.latest());
      long dispatches = sum(end) - sum(earliest);
      assertThat(dispatches).as("dispatches on %s", handlerTopic).isGreaterThanOrEqualTo(N);
      Map<TopicPartition, OffsetAndMetadata> reset = new HashMap<>();
      earliest.forEach((tp, o) -> reset.put(tp, new OffsetAndMetadata(o)));
      await() // the stopped member leaves the group; until then the group refuses new offsets
          .atMost(Duration.ofSeconds(90))
          .ignoreExceptions()
          .until(
              () -> {
                admin.alterConsumerGroupOffsets(workerGroup, reset).all().get(10, TimeUnit.SECONDS);
                return true;
              });
      worker = track(processes, ExampleWorker.recipe(apps, "worker-after-reset", false).start());
      JavaProcess restartedWorker = worker;
      await()
          .atMost(Duration.ofMinutes(3))
          .failFast("an app died", () -> assertThat(processes).allMatch(JavaProcess::isAlive))
          .untilAsserted(
              () -> {
                assertThat(committed(admin, workerGroup, handlerTopic))
                    .as(() -> restartedWorker.logTail(30))
                    .isEqualTo(end);
                assertThat(counted.fewestSince(beforeWorkerReset, ids))
                    .as("SUCCEEDED results per task since the worker reset")
                    .isPositive();
              });
      assertThat(effects(url, stack)).as("no handler ran again").isEqualTo(N);

      // (b) the scheduler reset as kafka-streams-application-reset would
      stop(processes, scheduler);
      deleteTree(runDir.resolve("state-scheduler"));
      Set<String> internal =
          admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
              .filter(t -> t.startsWith(applicationId + "-"))
              .filter(t -> t.endsWith("-changelog") || t.endsWith("-repartition"))
              .collect(Collectors.toSet());
      assertThat(internal).as("the scheduler's internal topics").isNotEmpty();
      admin.deleteTopics(internal).all().get(30, TimeUnit.SECONDS);
      await()
          .atMost(Duration.ofSeconds(90))
          .ignoreExceptions()
          .until(
              () -> {
                removeMembers(admin, applicationId);
                try {
                  admin
                      .deleteConsumerGroups(List.of(applicationId))
                      .all()
                      .get(10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                  if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                    throw e;
                  }
                }
                return true;
              });
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> !admin.listTopics().names().get().stream().anyMatch(internal::contains));
      Map<String, Integer> beforeSchedulerReset = results.snapshot();
      long dispatchedBeforeReset = sum(offsets(admin, handlerTopic, OffsetSpec.latest()));
      scheduler = track(processes, apps.scheduler("scheduler", port).start());

      await()
          .atMost(Duration.ofMinutes(3))
          .failFast("an app died", () -> assertThat(processes).allMatch(JavaProcess::isAlive))
          .untilAsserted(
              () -> {
                assertThat(sum(offsets(admin, handlerTopic, OffsetSpec.latest())))
                    .as("dispatched again after the scheduler reset")
                    .isGreaterThanOrEqualTo(dispatchedBeforeReset + N);
                assertThat(counted.fewestSince(beforeSchedulerReset, ids))
                    .as("SUCCEEDED results per task since the scheduler reset")
                    .isPositive();
              });
      awaitAllSucceeded(port, ids, processes);
      assertThat(effects(url, stack)).as("no handler ran again").isEqualTo(N);
      assertThat(distinctEffectTasks(url, stack)).containsExactlyInAnyOrderElementsOf(ids);
    } finally {
      for (int i = processes.size() - 1; i >= 0; i--) {
        processes.get(i).close();
      }
      if (results != null) {
        results.close();
      }
      deleteTree(runDir.resolve("state-scheduler"));
    }
  }

  /** Stops {@code p} (SIGTERM, then SIGKILL after 30 s) and forgets it. */
  private static void stop(List<JavaProcess> processes, JavaProcess p) {
    p.stop(Duration.ofSeconds(30));
    processes.remove(p);
  }

  private static JavaProcess track(List<JavaProcess> processes, JavaProcess p) {
    processes.add(p);
    return p;
  }

  private static void awaitAllSucceeded(int port, List<String> ids, List<JavaProcess> processes) {
    HttpClient http = HttpClient.newHttpClient();
    Set<String> done = ConcurrentHashMap.newKeySet();
    await()
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofMillis(500))
        .failFast("an app died", () -> assertThat(processes).allMatch(JavaProcess::isAlive))
        .untilAsserted(
            () -> {
              for (String id : ids) {
                if (!done.contains(id) && succeeded(http, port, id)) {
                  done.add(id);
                }
              }
              assertThat(done).hasSize(ids.size());
            });
  }

  private static boolean succeeded(HttpClient http, int port, String id) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/tasks/" + id))
                  .header("Authorization", "Bearer " + TasklaneApps.TOKEN)
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 && r.body().contains("\"state\":\"SUCCEEDED\"");
    } catch (Exception e) {
      return false; // starting or rebalancing
    }
  }

  private static long effects(String url, LocalStack stack) throws Exception {
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password());
        ResultSet rs =
            c.createStatement()
                .executeQuery("SELECT COUNT(*) FROM demo_effects WHERE kind='" + HANDLER + "'")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<String> distinctEffectTasks(String url, LocalStack stack) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, stack.username(), stack.password());
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT DISTINCT task_id FROM demo_effects WHERE kind='" + HANDLER + "'")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  private static Map<TopicPartition, Long> offsets(Admin admin, String topic, OffsetSpec spec)
      throws Exception {
    var description =
        admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    description
        .partitions()
        .forEach(p -> request.put(new TopicPartition(topic, p.partition()), spec));
    Map<TopicPartition, Long> out = new HashMap<>();
    admin
        .listOffsets(request)
        .all()
        .get(30, TimeUnit.SECONDS)
        .forEach((tp, info) -> out.put(tp, info.offset()));
    return out;
  }

  private static Map<TopicPartition, Long> committed(Admin admin, String group, String topic)
      throws Exception {
    Map<TopicPartition, Long> out = new HashMap<>();
    admin
        .listConsumerGroupOffsets(group)
        .partitionsToOffsetAndMetadata()
        .get(30, TimeUnit.SECONDS)
        .forEach(
            (tp, om) -> {
              if (tp.topic().equals(topic) && om != null) {
                out.put(tp, om.offset());
              }
            });
    return out;
  }

  private static long sum(Map<TopicPartition, Long> offsets) {
    return offsets.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Members a stopped Streams app left behind (it does not leave its group on close). */
  private static void removeMembers(Admin admin, String group) throws Exception {
    try {
      admin
          .removeMembersFromConsumerGroup(group, new RemoveMembersFromConsumerGroupOptions())
          .all()
          .get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      // no members left (or no group): nothing to remove
    }
  }

  private static void deleteTree(Path dir) throws Exception {
    if (Files.exists(dir)) {
      try (var paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** Counts SUCCEEDED results per task id on {@code <ns>.results}, from the beginning. */
  private static final class ResultCounter implements AutoCloseable {
    private final Map<String, Integer> succeeded = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean closed;

    ResultCounter(String bootstrap, String topic) {
      KafkaConsumer<String, byte[]> consumer =
          new KafkaConsumer<>(
              Map.of(
                  ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                  bootstrap,
                  ConsumerConfig.GROUP_ID_CONFIG,
                  "replay-test-" + UUID.randomUUID(),
                  ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                  "earliest"),
              new StringDeserializer(),
              new ByteArrayDeserializer());
      thread =
          new Thread(
              () -> {
                try (consumer) {
                  consumer.subscribe(List.of(topic));
                  while (!closed) {
                    for (var r : consumer.poll(Duration.ofMillis(100))) {
                      TaskResult result = WireCodec.decodeResult(r.value());
                      if (result.outcome() == Outcome.SUCCEEDED) {
                        succeeded.merge(result.id(), 1, Integer::sum);
                      }
                    }
                  }
                } catch (RuntimeException e) {
                  if (!closed) {
                    e.printStackTrace();
                  }
                }
              },
              "results-" + topic);
      thread.setDaemon(true);
      thread.start();
    }

    Map<String, Integer> snapshot() {
      return Map.copyOf(succeeded);
    }

    /** The fewest SUCCEEDED results any of {@code ids} got since {@code before}. */
    int fewestSince(Map<String, Integer> before, List<String> ids) {
      return ids.stream()
          .mapToInt(id -> succeeded.getOrDefault(id, 0) - before.getOrDefault(id, 0))
          .min()
          .orElse(0);
    }

    @Override
    public void close() throws InterruptedException {
      closed = true;
      thread.join(10_000);
    }
  }
}
