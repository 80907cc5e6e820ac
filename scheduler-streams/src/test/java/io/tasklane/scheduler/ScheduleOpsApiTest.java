package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schedule operations through the HTTP API on the real broker with two scheduler instances: define
 * (PUT), pause, resume and delete answer their outcome after the owning partition applied them,
 * whichever instance is asked; the list is fanned out over both instances and pages by cursor;
 * fires due while paused are recorded as skipped; bad input is refused naming the field.
 */
@TasklaneStack
class ScheduleOpsApiTest {
  static final String ADMIN = Tokens.random();
  static final String HANDLER = "sched.ops";

  @TempDir Path stateDir;

  private Map<String, Object> config(LocalStack stack, Topics topics, String name) {
    Map<String, Object> p = StackSupport.instanceConfig(stack, topics, stateDir, name, 4);
    p.put(
        "tasklane.scheduler.api.tokens",
        "viewer-bob:" + VIEWER + ":viewer,root:" + ADMIN + ":" + StackSupport.topRole());
    return p;
  }

  private static JsonNode call(int port, String method, String path, String body, int status)
      throws Exception {
    HttpResponse<String> r = StackSupport.send(port, method, path, ADMIN, body);
    assertThat(r.statusCode()).as(method + " " + path + ": " + r.body()).isEqualTo(status);
    return WireCodec.readTree(r.body());
  }

  private static String every(String period) {
    return "{\"handler\":\"" + HANDLER + "\",\"every\":\"" + period + "\"}";
  }

  @Test
  void definesPausesResumesListsAndDeletesSchedulesThroughEitherInstance(LocalStack stack)
      throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 2));
    try (EmbeddedServer a =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "a"));
        EmbeddedServer b =
            ApplicationContext.run(EmbeddedServer.class, config(stack, topics, "b"))) {
      int pa = a.getPort();
      int pb = b.getPort();
      // both instances run and own partitions: the list shows what each defined
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                HttpResponse<String> r =
                    StackSupport.send(pa, "PUT", "/api/schedules/ops.0", ADMIN, every("1h"));
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                assertThat(StackSupport.get(pb, "/api/schedules", VIEWER).statusCode())
                    .isEqualTo(200);
                assertThat(WireCodec.readTree(r.body()).get("outcome").asText())
                    .isEqualTo("applied");
              });
      List<String> names = new ArrayList<>(List.of("ops.0"));
      for (int i = 1; i < 7; i++) {
        String name = "ops." + i;
        JsonNode put =
            call(i % 2 == 0 ? pa : pb, "PUT", "/api/schedules/" + name, every("1h"), 200);
        assertThat(put.get("outcome").asText()).isEqualTo("applied");
        assertThat(put.get("action").asText()).isEqualTo("define");
        names.add(name);
      }
      // an explicit lower version than the stored one is ignored, naming both versions
      JsonNode stale =
          call(
              pa,
              "PUT",
              "/api/schedules/ops.1",
              "{\"handler\":\"" + HANDLER + "\",\"every\":\"2h\",\"version\":3}",
              200);
      assertThat(stale.get("outcome").asText()).isEqualTo("ignored");
      assertThat(stale.get("reason").asText()).contains("not higher than the stored version");

      // paging over both instances: every name once, in order
      List<String> listed = new ArrayList<>();
      String cursor = null;
      int pages = 0;
      do {
        JsonNode page =
            WireCodec.readTree(
                StackSupport.get(
                        pb,
                        "/api/schedules?limit=3" + (cursor == null ? "" : "&cursor=" + cursor),
                        VIEWER)
                    .body());
        assertThat(page.get("partial").asBoolean()).as(page.toString()).isFalse();
        page.get("schedules").forEach(n -> listed.add(n.get("name").asText()));
        cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
        pages++;
      } while (cursor != null && pages < 10);
      assertThat(listed).containsExactlyElementsOf(names);
      assertThat(pages).isEqualTo(3);

      // a 1 s schedule paused: its fires are recorded as skipped (paused), then resumed
      call(pa, "PUT", "/api/schedules/ops.tick", every("1s"), 200);
      JsonNode paused = call(pb, "POST", "/api/schedules/ops.tick/pause", null, 200);
      assertThat(paused.get("outcome").asText()).isEqualTo("applied");
      assertThat(
              call(pa, "POST", "/api/schedules/ops.tick/pause", null, 200).get("reason").asText())
          .isEqualTo("already paused");
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                JsonNode view = call(pa, "GET", "/api/schedules/ops.tick", null, 200);
                assertThat(view.get("paused").asBoolean()).isTrue();
                assertThat(view.get("nextFires")).isEmpty();
                assertThat(view.get("fires")).isNotEmpty();
                JsonNode newest = view.get("fires").get(0);
                assertThat(newest.get("outcome").asText()).isEqualTo("SKIPPED");
                assertThat(newest.get("reason").asText()).isEqualTo("paused");
              });
      JsonNode line = call(pa, "GET", "/api/schedules?limit=500", null, 200).get("schedules");
      assertThat(line.get(line.size() - 1).get("paused").asBoolean()).isTrue();
      assertThat(line.get(line.size() - 1).get("origin").asText()).isEqualTo("api:root");
      assertThat(
              call(pb, "POST", "/api/schedules/ops.tick/resume", null, 200).get("outcome").asText())
          .isEqualTo("applied");
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(call(pa, "GET", "/api/schedules/ops.tick", null, 200).get("fires"))
                      .first()
                      .satisfies(f -> assertThat(f.get("outcome").asText()).isEqualTo("RUNNING")));

      // delete: applied once, then ignored; the list leaves it out; unknown names answer 404
      assertThat(call(pb, "DELETE", "/api/schedules/ops.tick", null, 200).get("outcome").asText())
          .isEqualTo("applied");
      assertThat(call(pa, "DELETE", "/api/schedules/ops.tick", null, 200).get("reason").asText())
          .isEqualTo("already deleted");
      assertThat(call(pa, "GET", "/api/schedules?limit=500", null, 200).get("schedules"))
          .extracting(n -> n.get("name").asText())
          .containsExactlyElementsOf(names);
      assertThat(call(pa, "POST", "/api/schedules/nobody/pause", null, 404).get("error").asText())
          .isEqualTo("not-found");

      // bad input names the field and the limit; a viewer may not define
      assertThat(
              call(
                      pa,
                      "PUT",
                      "/api/schedules/ops.bad",
                      "{\"handler\":\"h\",\"cron\":\"61 * * * *\"}",
                      400)
                  .get("message")
                  .asText())
          .startsWith("cron:");
      assertThat(
              call(pa, "PUT", "/api/schedules/ops.bad?wait=31s", every("1h"), 400)
                  .get("message")
                  .asText())
          .contains("wait")
          .contains("30s");
      assertThat(call(pa, "GET", "/api/schedules?limit=501", null, 400).get("message").asText())
          .contains("limit")
          .contains("500");
      assertThat(
              call(
                      pa,
                      "PUT",
                      "/api/schedules/ops.bad",
                      "{\"name\":\"other\"," + every("1h").substring(1),
                      400)
                  .get("message")
                  .asText())
          .startsWith("name:");
      assertThat(
              StackSupport.send(pa, "PUT", "/api/schedules/ops.v", VIEWER, every("1h"))
                  .statusCode())
          .isEqualTo(403);
    }
  }
}
