package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.ADMIN;
import static io.tasklane.scheduler.StackSupport.OPERATOR;
import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.Outcome;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskKey;
import io.tasklane.core.TaskLogLine;
import io.tasklane.core.TaskResult;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's search, counts and bulk actions against two scheduler instances on the real
 * broker: every filter, pages that neither repeat nor skip a task across both instances, a scan
 * bound that answers partial pages, and asOf pinning.
 */
@TasklaneStack
class SearchApiTest {
  static final String A = "search.a";
  static final String B = "search.b";
  static final String DEAD = "search.dead";
  static final long T = 1_700_000_000_000L;

  @TempDir Path stateDir;

  private Map<String, Object> config(LocalStack stack, Topics topics, String name) {
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.server.port", -1);
    p.put("tasklane.scheduler.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.scheduler.namespace", topics.namespace());
    p.put("tasklane.scheduler.partitions", 4);
    p.put("tasklane.scheduler.state-dir", stateDir.resolve(name).toString());
    p.put("tasklane.scheduler.topic-refresh-interval", "500ms");
    p.put("tasklane.scheduler.search-scan-bound", 100);
    p.put("tasklane.scheduler.log-lines-per-task", 4);
    p.put(
        "tasklane.scheduler.api.tokens",
        "viewer-bob:"
            + VIEWER
            + ":viewer,ops-alice:"
            + OPERATOR
            + ":operator,admin-carol:"
            + ADMIN
            + ":admin");
    // viewers here may see (and so search) payloads; RedactorTest covers the refusal otherwise
    p.put("tasklane.scheduler.api.viewer-payloads", "true");
    p.put("tasklane.scheduler.inter-instance-token", StackSupport.INTER_INSTANCE);
    p.put("tasklane.scheduler.kafka.session.timeout.ms", "6000");
    p.put("tasklane.scheduler.kafka.heartbeat.interval.ms", "1000");
    return p;
  }

  static TaskEnvelope task(String handler, int i, long dueAt, int maxAttempts) {
    return TaskEnvelope.builder()
        .id(handler.equals(A) ? TaskKey.of(A, "k-" + i).taskId() : UUID.randomUUID().toString())
        .handler(handler)
        .key(handler.equals(A) ? "k-" + i : null)
        .payload(WireCodec.readTree("{\"customer\":{\"id\":" + (i % 5) + "}}"))
        .dueAt(dueAt)
        .maxAttempts(maxAttempts)
        .timeoutMs(5_000)
        .createdAt(T + i)
        .build();
  }

  static JsonNode get(int port, String path) throws Exception {
    HttpResponse<String> r = StackSupport.get(port, path, VIEWER);
    assertThat(r.statusCode()).as(path + " " + r.body()).isEqualTo(200);
    return WireCodec.readTree(r.body());
  }

  static List<String> ids(JsonNode page) {
    List<String> out = new ArrayList<>();
    page.path("tasks").forEach(t -> out.add(t.path("id").asText()));
    return out;
  }

  /** Every page of {@code query}, following nextCursor; fails on a repeated id. */
  static List<JsonNode> all(int port, String query) throws Exception {
    List<JsonNode> rows = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonNode page =
          get(
              port,
              "/api/tasks?"
                  + query
                  + (cursor == null
                      ? ""
                      : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8)));
      for (JsonNode t : page.path("tasks")) {
        assertThat(seen.add(t.path("id").asText())).as("repeated " + t).isTrue();
        rows.add(t);
      }
      cursor = page.path("nextCursor").isTextual() ? page.path("nextCursor").asText() : null;
      assertThat(++pages).isLessThan(200);
    } while (cursor != null);
    return rows;
  }

  static long count(JsonNode counts, String handler, String state) {
    for (JsonNode c : counts.path("counts")) {
      if (c.path("handler").asText().equals(handler) && c.path("state").asText().equals(state)) {
        assertThat(c.path("estimated").asBoolean()).isFalse();
        return c.path("count").asLong();
      }
    }
    return 0;
  }

  @Test
  void findsTasksByEveryFilterPagesAcrossInstancesAndCounts(LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(
        stack.bootstrapServers(),
        Map.of(topics.handler(A), 4, topics.handler(B), 4, topics.handler(DEAD), 4));
    long far = System.currentTimeMillis() + 3_600_000;
    try (EmbeddedServer a =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "a"));
        EmbeddedServer b =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "b"));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers());
        FakeWorker failing =
            new FakeWorker(
                stack.bootstrapServers(),
                topics,
                DEAD,
                d ->
                    TaskResult.failed(
                        d.id(),
                        d.attempt(),
                        Outcome.FAILED,
                        new ErrorInfo("boom", "it broke", null),
                        null,
                        d.dispatchedAt(),
                        d.dispatchedAt(),
                        "fake"))) {
      List<TaskEnvelope> as = new ArrayList<>();
      for (int i = 0; i < 45; i++) {
        as.add(task(A, i, far + i * 1_000L, 5));
        StackSupport.send(producer, topics, as.get(i));
      }
      for (int i = 0; i < 300; i++) {
        StackSupport.send(producer, topics, task(B, i, far, 5));
      }
      for (int i = 0; i < 12; i++) {
        StackSupport.send(producer, topics, task(DEAD, i, 0, 1));
      }
      int pa = a.getPort();
      int pb = b.getPort();
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                JsonNode counts = get(pa, "/api/tasks/counts");
                assertThat(count(counts, A, "PENDING")).isEqualTo(45);
                assertThat(count(counts, B, "PENDING")).isEqualTo(300);
                assertThat(count(counts, DEAD, "DEAD")).isEqualTo(12);
                assertThat(get(pb, "/api/tasks/counts").path("counts"))
                    .isEqualTo(counts.path("counts"));
              });
      JsonNode onlyB = get(pb, "/api/tasks/counts?handler=" + B);
      assertThat(onlyB.path("counts")).hasSize(1);
      assertThat(count(onlyB, B, "PENDING")).isEqualTo(300);

      // Each instance owns part of the tasks; either answers all of them.
      String own = "/api/tasks?handler=" + A + "&limit=500&forwarded=true";
      int ownA = ids(get(pa, own)).size();
      int ownB = ids(get(pb, own)).size();
      assertThat(ownA).isPositive();
      assertThat(ownB).isPositive();
      assertThat(ownA + ownB).isEqualTo(45);
      assertThat(all(pa, "handler=" + A + "&limit=7")).hasSize(45);
      assertThat(all(pb, "handler=" + A + "&limit=7")).hasSize(45);

      // state + handler from the index, newest change first, no repeats, no gaps
      List<JsonNode> dead = all(pa, "state=DEAD&limit=5");
      assertThat(dead).hasSize(12);
      assertThat(dead)
          .allSatisfy(
              t -> {
                assertThat(t.path("handler").asText()).isEqualTo(DEAD);
                assertThat(t.path("errorType").asText()).isEqualTo("boom");
                assertThat(t.path("updatedAtIso").asText()).endsWith("Z");
              });
      for (int i = 1; i < dead.size(); i++) {
        assertThat(dead.get(i).path("updatedAt").asLong())
            .isLessThanOrEqualTo(dead.get(i - 1).path("updatedAt").asLong());
      }
      assertThat(all(pb, "errorType=boom")).hasSize(12);
      assertThat(all(pb, "errorType=nope&handler=" + DEAD)).isEmpty();

      // key, idPrefix, created, due and payload filters
      JsonNode keyed = get(pa, "/api/tasks?handler=" + A + "&key=k-7");
      assertThat(keyed.path("task").path("id").asText()).isEqualTo(as.get(7).id());
      List<JsonNode> byKey = all(pa, "handler=" + A + "&key=k-7&state=PENDING");
      assertThat(byKey).extracting(t -> t.path("id").asText()).containsExactly(as.get(7).id());
      String prefix = as.get(3).id().substring(0, 6);
      assertThat(all(pb, "idPrefix=" + prefix))
          .extracting(t -> t.path("id").asText())
          .contains(as.get(3).id())
          .allMatch(id -> id.startsWith(prefix));
      assertThat(all(pa, "handler=" + A + "&createdFrom=" + (T + 10) + "&createdTo=" + (T + 19)))
          .hasSize(10);
      assertThat(all(pa, "handler=" + A + "&dueFrom=" + (far + 40_000)))
          .extracting(t -> t.path("key").asText())
          .containsExactlyInAnyOrder("k-40", "k-41", "k-42", "k-43", "k-44");
      assertThat(all(pb, "handler=" + A + "&payload=/customer/id=3")).hasSize(9);

      // other sorts page without repeats, in order
      List<JsonNode> byCreated = all(pb, "handler=" + A + "&sort=created&order=asc&limit=8");
      assertThat(byCreated)
          .extracting(t -> t.path("key").asText())
          .containsExactlyElementsOf(as.stream().map(TaskEnvelope::key).toList());
      List<JsonNode> byDue = all(pa, "handler=" + A + "&sort=due&limit=10");
      assertThat(byDue.get(0).path("key").asText()).isEqualTo("k-44");
      assertThat(byDue).hasSize(45);

      // asOf pins the listing: tasks created later are left out
      assertThat(all(pa, "handler=" + A + "&asOf=" + (T + 19))).hasSize(20);

      // a bound scan answers partial pages with a cursor until the listing ends
      JsonNode bounded = get(pa, "/api/tasks?handler=" + B + "&errorType=nope");
      assertThat(bounded.path("partial").asBoolean()).isTrue();
      assertThat(bounded.path("nextCursor").isTextual()).isTrue();
      assertThat(all(pa, "handler=" + B + "&errorType=nope")).isEmpty();
      assertThat(all(pa, "handler=" + B + "&limit=500")).hasSize(300);

      // the handler's log lines of a task, per attempt, capped per task
      String logged = as.get(5).id();
      for (int i = 0; i < 5; i++) {
        TaskLogLine line =
            new TaskLogLine(1, logged, i < 3 ? 1 : 2, T + i, "INFO", "line " + i, "w1");
        producer.send(new ProducerRecord<>(topics.logs(), logged, WireCodec.encode(line)));
      }
      producer.flush();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                JsonNode logs = get(pb, "/api/tasks/" + logged + "/logs");
                assertThat(logs.path("lines")).hasSize(4);
                assertThat(logs.path("truncated").asBoolean()).isTrue();
                assertThat(logs.path("dropped").asLong()).isEqualTo(1);
              });
      JsonNode first = get(pa, "/api/tasks/" + logged + "/logs?attempt=1");
      assertThat(first.path("lines")).hasSize(3);
      assertThat(first.path("lines").get(2).path("message").asText()).isEqualTo("line 2");
      assertThat(first.path("lines").get(0).path("atIso").asText()).endsWith("Z");
      assertThat(get(pa, "/api/tasks/" + logged + "/logs?attempt=2").path("lines")).hasSize(1);
      assertThat(get(pa, "/api/tasks/" + as.get(6).id() + "/logs").path("lines")).isEmpty();

      // bad input names the field and its limit
      for (String bad : List.of("limit=0", "limit=501", "state=FOO", "sort=name", "frob=1")) {
        HttpResponse<String> r = StackSupport.get(pa, "/api/tasks?" + bad, VIEWER);
        assertThat(r.statusCode()).as(bad).isEqualTo(400);
        JsonNode e = WireCodec.readTree(r.body());
        assertThat(e.path("error").asText()).isEqualTo("bad-request");
        assertThat(e.path("message").asText()).startsWith(bad.substring(0, bad.indexOf('=')));
      }
    }
  }

  @Test
  void aBulkRetryOfAThousandDeadTasksAppliesToEachOnceAndLeavesTasksCreatedAfterAsOf(
      LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    String h = "bulk.h";
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(h), 4));
    long asOf = T + 10_000;
    try (EmbeddedServer a =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "a"));
        EmbeddedServer b =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "b"));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(stack.bootstrapServers());
        FakeWorker firstFails =
            new FakeWorker(
                stack.bootstrapServers(),
                topics,
                h,
                d ->
                    d.attempt() == 1
                        ? TaskResult.failed(
                            d.id(),
                            d.attempt(),
                            Outcome.FAILED,
                            new ErrorInfo("boom", "first attempt fails", null),
                            null,
                            d.dispatchedAt(),
                            d.dispatchedAt(),
                            "fake")
                        : TaskResult.succeeded(
                            d.id(), d.attempt(), d.dispatchedAt(), d.dispatchedAt(), "fake"))) {
      for (int i = 0; i < 1_000; i++) {
        StackSupport.send(producer, topics, task(h, i, 0, 1));
      }
      TaskEnvelope late = task(h, 20_000, 0, 1); // created after asOf
      StackSupport.send(producer, topics, late);
      int pa = a.getPort();
      await()
          .atMost(Duration.ofSeconds(120))
          .untilAsserted(
              () -> assertThat(count(get(pa, "/api/tasks/counts"), h, "DEAD")).isEqualTo(1_001));

      String body =
          "{\"filter\":{\"handler\":\"" + h + "\",\"state\":\"DEAD\"},\"asOf\":" + asOf + "}";
      assertThat(StackSupport.post(pa, "/api/tasks/bulk/retry-dead", VIEWER, body).statusCode())
          .isEqualTo(403);
      assertThat(StackSupport.post(pa, "/api/tasks/bulk/retry-dead", OPERATOR, body).statusCode())
          .as("bulk actions are an admin's")
          .isEqualTo(403);
      HttpResponse<String> noAsOf =
          StackSupport.post(pa, "/api/tasks/bulk/retry-dead", ADMIN, "{\"filter\":{}}");
      assertThat(noAsOf.statusCode()).isEqualTo(400);
      assertThat(noAsOf.body()).contains("asOf");
      HttpResponse<String> started =
          StackSupport.post(pa, "/api/tasks/bulk/retry-dead", ADMIN, body);
      assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
      String job = WireCodec.readTree(started.body()).path("job").asText();
      await()
          .atMost(Duration.ofSeconds(120))
          .untilAsserted(
              () -> {
                JsonNode j = get(pa, "/api/jobs/" + job);
                assertThat(j.path("state").asText()).as(j.toString()).isEqualTo("DONE");
                assertThat(j.path("matched").asLong()).isEqualTo(1_000);
                assertThat(j.path("applied").asLong()).isEqualTo(1_000);
                assertThat(j.path("ignored").asLong()).isZero();
                assertThat(j.path("failed").asLong()).isZero();
              });
      await()
          .atMost(Duration.ofSeconds(120))
          .untilAsserted(
              () -> {
                JsonNode counts = get(pa, "/api/tasks/counts?handler=" + h);
                assertThat(count(counts, h, "SUCCEEDED")).isEqualTo(1_000);
                assertThat(count(counts, h, "DEAD")).isEqualTo(1);
              });
      assertThat(ids(get(pa, "/api/tasks?handler=" + h + "&state=DEAD")))
          .containsExactly(late.id());
      assertThat(StackSupport.get(b.getPort(), "/api/jobs/" + job, VIEWER).statusCode())
          .isEqualTo(404);
    }
  }
}
