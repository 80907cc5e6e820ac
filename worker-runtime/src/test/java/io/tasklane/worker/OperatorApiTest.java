package io.tasklane.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.context.ApplicationContext;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskResult;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import io.tasklane.worker.support.SchedulerChild;
import io.tasklane.worker.support.WorkerFixture;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker and the real scheduler (a child JVM) on the test stack, driven through the scheduler's
 * operator API.
 */
@TasklaneStack
class OperatorApiTest {
  @TempDir Path dir;

  @Test
  void cancellingADispatchedTaskInterruptsItsHandlerAndTheTaskStaysCancelled(LocalStack stack)
      throws Exception {
    try (WorkerFixture fx = new WorkerFixture(stack, "operator", List.of("blocking"));
        SchedulerChild scheduler = SchedulerChild.start(stack, fx.topics, dir, 3, Map.of());
        KafkaProducer<String, byte[]> producer = producer(stack)) {
      ApplicationContext worker =
          fx.start(
              Map.of(
                  "tasklane.worker.idempotency.enabled",
                  false,
                  "tasklane.worker.heartbeat-interval",
                  "500ms"));
      OperatorSuite.Probe probe = worker.getBean(OperatorSuite.Probe.class);
      TaskEnvelope task = task("blocking");
      producer
          .send(new ProducerRecord<>(fx.topics.tasks(), task.routingKey(), WireCodec.encode(task)))
          .get(10, TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(60)).until(() -> probe.started.contains(task.id()));
      // The worker's heartbeat shows the task running.
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () ->
                  assertThat(workers(scheduler))
                      .singleElement()
                      .satisfies(
                          w -> {
                            assertThat(w.path("live").asBoolean()).isTrue();
                            JsonNode h = w.path("handlers").get(0);
                            assertThat(h.path("name").asText()).isEqualTo("blocking");
                            assertThat(h.path("running").toString())
                                .isEqualTo("[\"" + task.id() + "\"]");
                          }));

      String path = "/api/tasks/" + task.id();
      HttpResponse<String> cancel = scheduler.post(path + "/cancel?reason=stop&wait=20s");
      assertThat(cancel.statusCode()).as(cancel.body()).isEqualTo(200);
      assertThat(WireCodec.readTree(cancel.body()).path("outcome").asText()).isEqualTo("applied");
      assertThat(WireCodec.readTree(cancel.body()).path("state").asText()).isEqualTo("CANCELLED");

      // The handler's thread saw the interrupt, and the worker answered that attempt CANCELLED.
      await().atMost(Duration.ofSeconds(30)).until(() -> probe.interrupted.contains(task.id()));
      TaskResult result = fx.awaitResult(task.id());
      assertThat(result.outcome()).isEqualTo(Outcome.CANCELLED);
      assertThat(result.attempt()).isEqualTo(1);
      assertThat(result.error().message()).contains("stop (by ops)");
      // The scheduler recorded it for the attempt; the task stays CANCELLED, never retried.
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                JsonNode view = WireCodec.readTree(scheduler.get(path).body());
                assertThat(view.path("state").asText()).isEqualTo("CANCELLED");
                assertThat(view.path("attempt").asInt()).isEqualTo(1);
                assertThat(view.path("history").get(0).path("outcome").asText())
                    .isEqualTo("CANCELLED (after cancel)");
              });
      assertThat(fx.results(task.id())).hasSize(1);
    }
  }

  @Test
  void workersPublishHeartbeatsAStoppedOneLeavesAndAKilledOneTurnsLost(LocalStack stack)
      throws Exception {
    try (WorkerFixture fx = new WorkerFixture(stack, "operator", List.of("blocking"));
        SchedulerChild scheduler = SchedulerChild.start(stack, fx.topics, dir, 3, Map.of())) {
      Map<String, Object> common =
          Map.of(
              "tasklane.worker.idempotency.enabled",
              false,
              "tasklane.worker.heartbeat-interval",
              "500ms",
              "tasklane.worker.handlers.blocking.concurrency",
              3);
      Map<String, Object> a = new HashMap<>(common);
      a.put("tasklane.worker.name", "worker-a");
      ApplicationContext stopped = fx.start(a);
      Map<String, Object> b = new HashMap<>(common);
      b.put("tasklane.worker.name", "worker-b");
      JavaProcess.Builder child =
          JavaProcess.builder(KillWorkerMain.class.getName()).name("worker-b");
      fx.properties(b).forEach((k, v) -> child.sysProp(k, String.valueOf(v)));
      try (JavaProcess killed = child.start()) {
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () -> {
                  List<JsonNode> all = workers(scheduler);
                  assertThat(all)
                      .extracting(w -> w.path("name").asText())
                      .containsExactlyInAnyOrder("worker-a", "worker-b");
                  for (JsonNode w : all) {
                    assertThat(w.path("live").asBoolean()).isTrue();
                    assertThat(w.path("holdsDispatches").asBoolean()).isTrue();
                    assertThat(w.path("id").asText()).startsWith(w.path("name").asText() + "-");
                    assertThat(w.path("pid").asLong()).isPositive();
                    assertThat(w.path("lastSeenAtIso").asText()).endsWith("Z");
                    JsonNode h = w.path("handlers").get(0);
                    assertThat(h.path("name").asText()).isEqualTo("blocking");
                    assertThat(h.path("concurrency").asInt()).isEqualTo(3);
                  }
                });
        assertThat(workers(scheduler))
            .filteredOn(w -> w.path("name").asText().equals("worker-b"))
            .singleElement()
            .satisfies(w -> assertThat(w.path("pid").asLong()).isEqualTo(killed.pid()));

        fx.stop(stopped); // clean stop: a tombstone, gone at once
        await()
            .atMost(Duration.ofSeconds(20))
            .untilAsserted(
                () ->
                    assertThat(workers(scheduler))
                        .extracting(w -> w.path("name").asText())
                        .containsExactly("worker-b"));

        killed.kill9(); // no tombstone: lost after 3 missed heartbeats
        await()
            .atMost(Duration.ofSeconds(20))
            .untilAsserted(
                () ->
                    assertThat(workers(scheduler))
                        .singleElement()
                        .satisfies(
                            w -> {
                              assertThat(w.path("name").asText()).isEqualTo("worker-b");
                              assertThat(w.path("live").asBoolean()).isFalse();
                            }));
      }
    }
  }

  @Test
  void aPausedHandlerIsHeldWhileOthersRunAndResumeDispatchesItsTasks(LocalStack stack)
      throws Exception {
    try (WorkerFixture fx =
            new WorkerFixture(stack, "operator", List.of("quick", "other", "doomed"));
        SchedulerChild scheduler = SchedulerChild.start(stack, fx.topics, dir, 3, Map.of());
        KafkaProducer<String, byte[]> producer = producer(stack)) {
      ApplicationContext worker =
          fx.start(
              Map.of(
                  "tasklane.worker.idempotency.enabled",
                  false,
                  "tasklane.worker.heartbeat-interval",
                  "500ms"));
      OperatorSuite.Probe probe = worker.getBean(OperatorSuite.Probe.class);
      HttpResponse<String> paused = scheduler.post("/api/handlers/quick/pause");
      assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
      assertThat(WireCodec.readTree(paused.body()).path("paused").asBoolean()).isTrue();

      List<String> quick = new ArrayList<>();
      List<String> other = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        quick.add(enqueue(producer, fx, "quick"));
        other.add(enqueue(producer, fx, "other"));
      }
      for (int i = 0; i < 3; i++) {
        enqueue(producer, fx, "doomed");
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> probe.other.containsAll(other));
      // Each handler's figures: counts by state, the paused handler's backlog, recent outcomes.
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                JsonNode q = handler(scheduler, "quick");
                assertThat(q.path("counts").path("PENDING").asLong()).isEqualTo(5);
                assertThat(q.path("backlog").asLong()).isEqualTo(5);
                assertThat(q.path("recent").path("succeeded").asLong()).isZero();
                JsonNode o = handler(scheduler, "other");
                assertThat(o.path("counts").path("SUCCEEDED").asLong()).isEqualTo(5);
                assertThat(o.path("backlog").asLong()).isZero();
                assertThat(o.path("recent").path("succeeded").asLong()).isEqualTo(5);
                assertThat(o.path("recent").path("failed").asLong()).isZero();
                assertThat(o.path("recent").path("runTimeMs").path("p50").isNumber()).isTrue();
                assertThat(o.path("recent").path("latenessMs").path("p99").isNumber()).isTrue();
                assertThat(o.path("recent").path("succeededPerMin").asDouble()).isPositive();
                JsonNode d = handler(scheduler, "doomed");
                assertThat(d.path("counts").path("DEAD").asLong()).isEqualTo(3);
                assertThat(d.path("recent").path("dead").asLong()).isEqualTo(3);
                assertThat(d.path("recent").path("failed").asLong()).isEqualTo(3);
                assertThat(d.path("recent").path("succeeded").asLong()).isZero();
                assertThat(d.path("partial").asBoolean()).isFalse();
              });
      // The paused handler's due tasks stay PENDING while the other handler ran all of its own.
      for (String id : quick) {
        assertThat(WireCodec.readTree(scheduler.get("/api/tasks/" + id).body()).path("state"))
            .hasToString("\"PENDING\"");
      }
      assertThat(probe.quick).isEmpty();
      JsonNode view = WireCodec.readTree(scheduler.get("/api/handlers/quick").body());
      assertThat(view.path("paused").asBoolean()).isTrue();
      assertThat(view.path("updatedBy").asText()).isEqualTo("ops");

      HttpResponse<String> resumed = scheduler.post("/api/handlers/quick/resume");
      assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
      assertThat(WireCodec.readTree(resumed.body()).path("paused").asBoolean()).isFalse();
      await().atMost(Duration.ofSeconds(60)).until(() -> probe.quick.containsAll(quick));
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                JsonNode q = handler(scheduler, "quick");
                assertThat(q.path("backlog").asLong()).isZero();
                assertThat(q.path("counts").path("SUCCEEDED").asLong()).isEqualTo(5);
                assertThat(q.path("recent").path("succeeded").asLong()).isEqualTo(5);
              });
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () ->
                  assertThat(
                          WireCodec.readTree(scheduler.get("/api/handlers").body())
                              .path("handlers")
                              .findValuesAsText("name"))
                      .contains("quick", "other"));
    }
  }

  @Test
  void aLiveWorkersPoolTakesANewConcurrencyWithoutARestart(LocalStack stack) throws Exception {
    try (WorkerFixture fx = new WorkerFixture(stack, "operator", List.of("parallel"));
        SchedulerChild scheduler = SchedulerChild.start(stack, fx.topics, dir, 3, Map.of());
        KafkaProducer<String, byte[]> producer = producer(stack)) {
      ApplicationContext worker =
          fx.start(
              Map.of(
                  "tasklane.worker.idempotency.enabled",
                  false,
                  "tasklane.worker.heartbeat-interval",
                  "500ms",
                  "tasklane.worker.handlers.parallel.concurrency",
                  1,
                  "tasklane.worker.handlers.parallel.max-in-flight",
                  8));
      OperatorSuite.Probe probe = worker.getBean(OperatorSuite.Probe.class);
      for (String bad : List.of("0", "1001", "x")) {
        HttpResponse<String> r = scheduler.post("/api/handlers/parallel/concurrency?value=" + bad);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(r.body())
            .contains("\"error\":\"invalid-parameter\"")
            .contains("must be an integer from 1 to 1000");
      }
      for (int i = 0; i < 6; i++) {
        enqueue(producer, fx, "parallel");
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> probe.running.get() == 1);
      assertThat(probe.maxRunning.get()).isEqualTo(1);

      HttpResponse<String> set = scheduler.post("/api/handlers/parallel/concurrency?value=4");
      assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
      assertThat(WireCodec.readTree(set.body()).path("concurrency").asInt()).isEqualTo(4);
      // The running worker's pool grows: four handlers run at once, and its heartbeat says so.
      await().atMost(Duration.ofSeconds(30)).until(() -> probe.maxRunning.get() == 4);
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () ->
                  assertThat(workers(scheduler).get(0).path("handlers").get(0).path("concurrency"))
                      .hasToString("4"));
      probe.release.countDown();
    }
  }

  private static String enqueue(
      KafkaProducer<String, byte[]> producer, WorkerFixture fx, String handler) throws Exception {
    TaskEnvelope t = task(handler);
    producer
        .send(new ProducerRecord<>(fx.topics.tasks(), t.routingKey(), WireCodec.encode(t)))
        .get(10, TimeUnit.SECONDS);
    return t.id();
  }

  static JsonNode handler(SchedulerChild scheduler, String name) throws Exception {
    HttpResponse<String> r = scheduler.get("/api/handlers/" + name);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return WireCodec.readTree(r.body());
  }

  static List<JsonNode> workers(SchedulerChild scheduler) throws Exception {
    HttpResponse<String> r = scheduler.get("/api/workers");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    List<JsonNode> out = new ArrayList<>();
    WireCodec.readTree(r.body()).path("workers").forEach(out::add);
    return out;
  }

  static TaskEnvelope task(String handler) {
    long now = System.currentTimeMillis();
    return TaskEnvelope.builder()
        .id(TaskIds.keyless(Clock.systemUTC()))
        .handler(handler)
        .payload(WireCodec.readTree("{}"))
        .dueAt(now)
        .maxAttempts(3)
        .timeoutMs(600_000)
        .createdAt(now)
        .build();
  }

  static KafkaProducer<String, byte[]> producer(LocalStack stack) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            stack.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG,
            "all"),
        new StringSerializer(),
        new ByteArraySerializer());
  }
}
