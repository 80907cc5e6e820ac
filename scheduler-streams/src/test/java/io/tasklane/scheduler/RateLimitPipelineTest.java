package io.tasklane.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rate limits through two running scheduler instances on the real broker: the tasks naming one
 * limit, nine in ten of them in one partition, start at the limit's rate across both instances
 * (never more than {@code rate + burst - 1} in any second, and not far below it), and a handler's
 * own rate spaces its tasks. The start of a dispatch is its {@code notBefore} (the worker starts it
 * then), else its dispatch time.
 */
@TasklaneStack
class RateLimitPipelineTest {
  static final String SHARED = "rated.call";
  static final String OWN = "rated.own";
  static final int RATE = 20;
  static final int TASKS = 120;

  @TempDir Path stateDir;

  private Map<String, Object> config(LocalStack stack, Topics topics, String name) {
    Map<String, Object> p = StackSupport.instanceConfig(stack, topics, stateDir, name, 4);
    p.put(
        "tasklane.scheduler.api.tokens",
        "viewer-bob:"
            + StackSupport.VIEWER
            + ":viewer,root-carol:"
            + StackSupport.ADMIN
            + ":admin");
    p.put("tasklane.scheduler.topic-refresh-interval", "1s");
    p.put("tasklane.scheduler.limits.partner-api.rate", RATE + "/s");
    p.put("tasklane.scheduler.handlers." + OWN + ".rate", "5/s");
    return p;
  }

  /** Whether instance {@code port} holds task {@code id} (a forwarded read it answers itself). */
  private static boolean holds(int port, String id) throws Exception {
    return StackSupport.HTTP
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://localhost:"
                                + port
                                + "/api/tasks/"
                                + id
                                + "?forwarded=true&routingKey="
                                + id))
                    .header("Authorization", "Bearer " + StackSupport.INTER_INSTANCE)
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .statusCode()
        == 200;
  }

  private static long start(Dispatch x) {
    return x.notBefore() == null ? x.dispatchedAt() : x.notBefore();
  }

  private static int mostInASecond(List<Long> sorted) {
    int most = 0;
    for (int i = 0, j = 0; i < sorted.size(); i++) {
      while (sorted.get(i) - sorted.get(j) >= 1_000) {
        j++;
      }
      most = Math.max(most, i - j + 1);
    }
    return most;
  }

  private static List<Long> starts(String bootstrap, String topic, int n) {
    List<Long> out = new ArrayList<>();
    for (var r : StackSupport.readAll(bootstrap, topic, n)) {
      out.add(start(WireCodec.decodeDispatch(r.value())));
    }
    out.sort(Long::compare);
    return out;
  }

  @Test
  void aLimitHoldsAcrossTwoInstancesWithSkewedLoad(LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    String bootstrap = stack.bootstrapServers();
    StackSupport.createTopics(bootstrap, Map.of(topics.handler(SHARED), 2, topics.handler(OWN), 1));
    try (EmbeddedServer a =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "a"));
        EmbeddedServer b =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "b"));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(bootstrap)) {
      List<String> probes = new ArrayList<>();
      for (int i = 0; i < 16; i++) { // far ahead, unlimited: only to see both instances own tasks
        TaskEnvelope t = StackSupport.task("rated.probe", System.currentTimeMillis() + 3_600_000);
        StackSupport.send(producer, topics, t);
        probes.add(t.id());
      }
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(500))
          .until(
              () -> {
                Map<Integer, Integer> owned = new HashMap<>();
                for (String id : probes) {
                  int port = holds(a.getPort(), id) ? a.getPort() : b.getPort();
                  if (holds(port, id)) {
                    owned.merge(port, 1, Integer::sum);
                  }
                }
                return owned.size() == 2 && owned.values().stream().mapToInt(i -> i).sum() == 16;
              });

      TaskOptions limited = TaskOptions.builder().rateLimit("partner-api").build();
      long now = System.currentTimeMillis();
      for (int i = 0; i < TASKS; i++) {
        // nine in ten in one partition (ids placed there), the rest spread by their ids
        TaskEnvelope t =
            StackSupport.task(SHARED, now).toBuilder().timeoutMs(600_000).options(limited).build();
        if (i % 10 != 0) {
          t = t.toBuilder().id(TaskIds.inPartitionOf(t.id(), "hot", 4)).build();
        }
        StackSupport.send(producer, topics, t);
      }
      for (int i = 0; i < 12; i++) {
        StackSupport.send(
            producer, topics, StackSupport.task(OWN, now).toBuilder().timeoutMs(600_000).build());
      }

      List<Long> shared = new ArrayList<>();
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () -> {
                shared.clear();
                shared.addAll(starts(bootstrap, topics.handler(SHARED), TASKS));
                assertThat(shared).hasSize(TASKS);
              });
      assertThat(mostInASecond(shared)).as("starts in any second").isLessThanOrEqualTo(RATE);
      double seconds = (shared.get(TASKS - 1) - shared.get(0)) / 1_000.0;
      double rate = (TASKS - 1) / seconds;
      assertThat(rate)
          .as("starts a second over %.2f s", seconds)
          .isBetween(RATE * 0.8, RATE * 1.01);

      List<Long> own = starts(bootstrap, topics.handler(OWN), 12);
      assertThat(own).hasSize(12);
      for (int i = 1; i < own.size(); i++) {
        assertThat(own.get(i) - own.get(i - 1)).as("gap %d", i).isGreaterThanOrEqualTo(199);
      }
    }
  }

  private static HttpResponse<String> call(int port, String method, String path, String token)
      throws Exception {
    return StackSupport.send(port, method, path, token, null);
  }

  /**
   * A limit set through one instance's API is obeyed by every instance, tasks that waited for an
   * undefined limit start once it is set, a handler's rate set at run time replaces the configured
   * one until it is removed, and bad input is refused naming the field.
   */
  @Test
  void aLimitSetThroughTheApiHoldsOnEveryInstanceAndItsRemovalPutsTheConfiguredOneBack(
      LocalStack stack) throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    String bootstrap = stack.bootstrapServers();
    StackSupport.createTopics(bootstrap, Map.of(topics.handler(SHARED), 2, topics.handler(OWN), 1));
    try (EmbeddedServer a =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "a"));
        EmbeddedServer b =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "b"));
        KafkaProducer<String, byte[]> producer = StackSupport.producer(bootstrap)) {
      String admin = StackSupport.ADMIN;
      HttpResponse<String> bad = call(a.getPort(), "POST", "/api/limits/live?rate=fast", admin);
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(bad.body()).contains("rate: 'fast' must read");
      bad = call(a.getPort(), "POST", "/api/limits/live?rate=5/s&burst=0", admin);
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(bad.body()).contains("burst: 0 must be from 1 to 100000");
      bad = call(a.getPort(), "POST", "/api/limits/Live?rate=5/s", admin);
      assertThat(bad.body()).contains("name: 'Live' must match");
      assertThat(
              call(a.getPort(), "POST", "/api/limits/live?rate=5/s", StackSupport.VIEWER)
                  .statusCode())
          .isEqualTo(403);
      assertThat(call(a.getPort(), "DELETE", "/api/limits/live", admin).statusCode())
          .isEqualTo(404);

      // tasks naming a limit nobody defined wait for it
      TaskOptions live = TaskOptions.builder().rateLimit("live").build();
      long now = System.currentTimeMillis();
      int n = 40;
      for (int i = 0; i < n; i++) {
        TaskEnvelope t =
            StackSupport.task(SHARED, now).toBuilder().timeoutMs(600_000).options(live).build();
        StackSupport.send(producer, topics, t);
      }
      await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(10))
          .until(() -> StackSupport.readAll(bootstrap, topics.handler(SHARED), 0).isEmpty());

      HttpResponse<String> set =
          call(a.getPort(), "POST", "/api/limits/live?rate=10/s&burst=2", admin);
      assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
      assertThat(set.body()).contains("\"rate\":\"10/s\"", "\"source\":\"api\"");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  call(b.getPort(), "GET", "/api/limits/live", StackSupport.VIEWER)
                      .body()
                      .contains("\"updatedBy\":\"root-carol\""));

      List<Long> started = new ArrayList<>();
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () -> {
                started.clear();
                started.addAll(starts(bootstrap, topics.handler(SHARED), n));
                assertThat(started).hasSize(n);
              });
      assertThat(mostInASecond(started)).as("starts in any second").isLessThanOrEqualTo(11);
      // the burst of 2 starts at once; the rest are spaced a tenth of a second apart
      double seconds = (started.get(n - 1) - started.get(0)) / 1_000.0;
      assertThat((n - 2) / seconds)
          .as("starts a second after the burst, over %.2f s", seconds)
          .isBetween(8.0, 10.3);

      // a handler's own rate set at run time replaces the configured 5/s, until removed
      HttpResponse<String> own =
          call(a.getPort(), "POST", "/api/handlers/" + OWN + "/rate?rate=2/s", admin);
      assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
      assertThat(own.body()).contains("\"configuredRate\":\"5/s\"", "\"rate\":\"2/s\"");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  call(b.getPort(), "GET", "/api/limits", StackSupport.VIEWER)
                      .body()
                      .contains("\"rate\":\"2/s\""));
      for (int i = 0; i < 6; i++) {
        StackSupport.send(
            producer,
            topics,
            StackSupport.task(OWN, System.currentTimeMillis()).toBuilder()
                .timeoutMs(600_000)
                .build());
      }
      List<Long> slow = new ArrayList<>();
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () -> {
                slow.clear();
                slow.addAll(starts(bootstrap, topics.handler(OWN), 6));
                assertThat(slow).hasSize(6);
              });
      for (int i = 1; i < slow.size(); i++) {
        assertThat(slow.get(i) - slow.get(i - 1)).as("gap %d", i).isGreaterThanOrEqualTo(499);
      }
      HttpResponse<String> removed =
          call(b.getPort(), "DELETE", "/api/handlers/" + OWN + "/rate", admin);
      assertThat(removed.statusCode()).as(removed.body()).isEqualTo(200);
      assertThat(removed.body()).contains("\"rate\":\"5/s\"", "\"source\":\"configuration\"");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  call(a.getPort(), "GET", "/api/limits", StackSupport.VIEWER)
                      .body()
                      .contains("\"rate\":\"5/s\",\"burst\":1,\"source\":\"configuration\""));
      var audit = call(a.getPort(), "GET", "/api/audit?limit=20", admin);
      assertThat(audit.body()).contains("limit.rate=10/s,burst=2", "limit.removed");
    }
  }
}
