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
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/schedules/preview} on a scheduler on the real broker: a viewer previews a cron
 * with seconds in a non-UTC zone, and the fires it shows are exactly the {@code nextFires} the
 * scheduler reports once an admin defines that schedule; bad input answers 400 naming the field,
 * with the same message a definition gets; fires that end early carry the same warning in both; the
 * route is not taken for a schedule name, while a schedule really named {@code preview} stays
 * readable; without a token it is 401.
 */
@TasklaneStack
class SchedulePreviewApiTest {
  static final String ADMIN = Tokens.random();
  static final String HANDLER = "sched.preview";
  static final String CRON = "0 15 6 * * ?";
  static final String ZONE = "America/Sao_Paulo";

  @TempDir Path stateDir;

  private Map<String, Object> config(LocalStack stack, Topics topics) {
    Map<String, Object> p = new HashMap<>();
    p.put("micronaut.server.port", -1);
    p.put("tasklane.scheduler.bootstrap-servers", stack.bootstrapServers());
    p.put("tasklane.scheduler.namespace", topics.namespace());
    p.put("tasklane.scheduler.partitions", 2);
    p.put("tasklane.scheduler.state-dir", stateDir.toString());
    p.put(
        "tasklane.scheduler.api.tokens",
        "viewer-bob:" + VIEWER + ":viewer,root:" + ADMIN + ":" + StackSupport.topRole());
    return p;
  }

  private static String q(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String cron(String cron) {
    return "{\"handler\":\"" + HANDLER + "\",\"cron\":\"" + cron + "\"}";
  }

  private static JsonNode get(int port, String path, int status) throws Exception {
    HttpResponse<String> r = StackSupport.get(port, path, VIEWER);
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(status);
    return WireCodec.readTree(r.body());
  }

  @Test
  void previewsFiresExactlyAsTheSchedulerWillFireThemAndRefusesBadFields(LocalStack stack)
      throws Exception {
    Topics topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(stack.bootstrapServers(), Map.of(topics.handler(HANDLER), 2));
    try (EmbeddedServer s = ApplicationContext.run(EmbeddedServer.class, config(stack, topics))) {
      int port = s.getPort();
      long before = System.currentTimeMillis();
      JsonNode p =
          get(
              port,
              "/api/schedules/preview?cron=" + q(CRON) + "&zone=" + q(ZONE) + "&count=5",
              200);
      assertThat(p.get("valid").asBoolean()).isTrue();
      assertThat(p.get("zone").asText()).isEqualTo(ZONE);
      List<String> previewed = new ArrayList<>();
      for (JsonNode f : p.get("nextFires")) {
        assertThat(f.get("at").asLong()).isGreaterThan(before);
        assertThat(Instant.parse(f.get("atIso").asText()).toEpochMilli())
            .isEqualTo(f.get("at").asLong());
        assertThat(f.get("local").asText()).endsWith("T06:15-03:00");
        previewed.add(f.get("atIso").asText());
      }
      assertThat(previewed).hasSize(5);

      // the scheduler, given that definition, waits for exactly those fires
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                HttpResponse<String> put =
                    StackSupport.send(
                        port,
                        "PUT",
                        "/api/schedules/daily.report",
                        ADMIN,
                        "{\"handler\":\""
                            + HANDLER
                            + "\",\"cron\":\""
                            + CRON
                            + "\",\"zone\":\""
                            + ZONE
                            + "\"}");
                assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
              });
      JsonNode status = get(port, "/api/schedules/daily.report", 200);
      List<String> scheduled = new ArrayList<>();
      status.get("nextFires").forEach(n -> scheduled.add(n.asText()));
      assertThat(scheduled).isEqualTo(previewed);

      // a fixed rate, default count and zone
      JsonNode rate = get(port, "/api/schedules/preview?every=10m", 200);
      assertThat(rate.get("nextFires")).hasSize(5);
      assertThat(rate.get("nextFires").get(0).get("at").asLong() % 600_000).isZero();

      // bad input: 400 naming the field and the limit
      Map<String, String> bad = new java.util.LinkedHashMap<>();
      bad.put("cron=" + q("61 * * * *"), "cron");
      bad.put("cron=" + q("* * *"), "cron");
      bad.put("cron=" + q("* * * * *") + "&every=5m", "cron");
      bad.put("every=500ms", "every");
      bad.put("cron=" + q("* * * * *") + "&zone=" + q("Mars/Olympus"), "zone");
      bad.put("cron=" + q("* * * * *") + "&count=51", "count");
      bad.put("cron=" + q("* * * * *") + "&count=many", "count");
      for (var e : bad.entrySet()) {
        JsonNode refused = get(port, "/api/schedules/preview?" + e.getKey(), 400);
        assertThat(refused.get("valid").asBoolean()).isFalse();
        assertThat(refused.get("field").asText()).as(e.getKey()).isEqualTo(e.getValue());
        assertThat(refused.get("message").asText()).startsWith(e.getValue() + ": ");
      }

      // a numeric day of week that Quartz and Spring read differently: the preview (which the
      // console's live check shows) and a definition refuse it with the same message
      String weekdays = "0 0 9 ? * 1-5";
      String message =
          get(port, "/api/schedules/preview?cron=" + q(weekdays), 400).get("message").asText();
      assertThat(message)
          .startsWith("cron: '0 0 9 ? * 1-5' has a numeric day of week")
          .contains("Quartz counts 1=Sunday")
          .contains("Spring counts 1=Monday")
          .contains("MON-FRI");
      HttpResponse<String> refused =
          StackSupport.send(port, "PUT", "/api/schedules/weekdays", ADMIN, cron(weekdays));
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
      assertThat(WireCodec.readTree(refused.body()).get("message").asText()).isEqualTo(message);

      // fires that end early (29 February: the last in 2096): a warning from both
      String leap = "0 0 0 29 2 ?";
      JsonNode leapPreview = get(port, "/api/schedules/preview?cron=" + q(leap), 200);
      assertThat(leapPreview.get("warnings").get(0).asText())
          .contains("last time at 2096-02-29T00:00Z");
      HttpResponse<String> leapPut =
          StackSupport.send(port, "PUT", "/api/schedules/leap.day", ADMIN, cron(leap));
      assertThat(leapPut.statusCode()).as(leapPut.body()).isEqualTo(200);
      assertThat(WireCodec.readTree(leapPut.body()).get("warnings"))
          .isEqualTo(leapPreview.get("warnings"));
      assertThat(p.has("warnings")).isFalse();

      // without cron or every, the path still reads the schedule named "preview"
      assertThat(StackSupport.get(port, "/api/schedules/preview", VIEWER).statusCode())
          .isEqualTo(404);
      StackSupport.send(
          port,
          "PUT",
          "/api/schedules/preview",
          ADMIN,
          "{\"handler\":\"" + HANDLER + "\",\"every\":\"1h\"}");
      assertThat(get(port, "/api/schedules/preview", 200).get("name").asText())
          .isEqualTo("preview");

      assertThat(StackSupport.get(port, "/api/schedules/preview?every=1m", null).statusCode())
          .isEqualTo(401);
    }
  }
}
