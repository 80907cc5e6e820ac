package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.OPERATOR;
import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.web.router.Router;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The HTTP API's security on the real broker: the role table, redaction, the audit trail, the
 * OpenAPI document against the app's routes, browser sessions with CSRF, and security headers.
 */
@TasklaneStack
class ApiSecurityTest {
  static final String HANDLER = "api.security";
  static final String ADMIN = Tokens.random();

  /** The sensitive field's value, which no answer to a viewer and no audit record may hold. */
  static final String CARD = "card-number-" + UUID.randomUUID();

  @TempDir static Path stateDir;

  static Topics topics;
  static EmbeddedServer server;
  static KafkaProducer<String, byte[]> producer;
  static String bootstrap;
  static int port;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    bootstrap = stack.bootstrapServers();
    topics = StackSupport.uniqueTopics();
    StackSupport.createTopics(bootstrap, Map.of(topics.handler(HANDLER), 1));
    Map<String, Object> p =
        StackSupport.rolesConfig(
            bootstrap, topics, stateDir, ADMIN, HANDLER, "/card/number, /secret");
    server = ApplicationContext.run(EmbeddedServer.class, p);
    port = server.getPort();
    producer = StackSupport.producer(bootstrap);
  }

  @AfterAll
  static void stop() {
    if (producer != null) {
      producer.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** A task due in an hour (PENDING until then) with a card number in its payload. */
  private static TaskEnvelope pendingTask() throws Exception {
    TaskEnvelope t =
        TaskEnvelope.builder()
            .id(UUID.randomUUID().toString())
            .handler(HANDLER)
            .payload(
                WireCodec.readTree(
                    "{\"card\":{\"number\":\"" + CARD + "\",\"exp\":\"12/30\"},\"amount\":5}"))
            .dueAt(System.currentTimeMillis() + 3_600_000)
            .maxAttempts(5)
            .timeoutMs(5_000)
            .createdAt(System.currentTimeMillis())
            .build();
    StackSupport.send(producer, topics, t);
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () ->
                assertThat(StackSupport.get(port, "/api/tasks/" + t.id(), VIEWER).statusCode())
                    .isEqualTo(200));
    return t;
  }

  private static HttpResponse<String> send(
      String method, String path, String body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
    headers.forEach(r::header);
    r.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    return StackSupport.HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static Map<String, String> bearer(String token) {
    return Map.of("Authorization", "Bearer " + token);
  }

  @Test
  void eachRoleMayDoWhatTheTableSaysAndNoMore() throws Exception {
    TaskEnvelope t = pendingTask();
    String task = "/api/tasks/" + t.id();

    assertThat(StackSupport.get(port, task, VIEWER).statusCode()).isEqualTo(200);
    assertThat(StackSupport.get(port, "/api/openapi.yml", VIEWER).statusCode()).isEqualTo(200);
    HttpResponse<String> viewerWrite = StackSupport.post(port, task + "/trigger", VIEWER);
    assertThat(viewerWrite.statusCode()).isEqualTo(403);
    assertThat(WireCodec.readTree(viewerWrite.body()).path("message").asText())
        .isEqualTo(
            "POST "
                + task
                + "/trigger needs a token with role operator; token 'viewer-bob' has role viewer"
                + " (it may only read)");
    assertThat(StackSupport.get(port, "/api/audit", VIEWER).statusCode()).isEqualTo(403);

    assertThat(StackSupport.get(port, "/api/audit?limit=1", OPERATOR).statusCode()).isEqualTo(200);
    for (String adminPath :
        List.of(
            "/api/tasks/bulk/cancel",
            "/api/handlers/" + HANDLER + "/pause",
            "/api/schedules/nightly/pause",
            "/api/tasks//bulk/cancel",
            "/api/tasks/%62ulk/cancel")) {
      HttpResponse<String> r = StackSupport.post(port, adminPath, OPERATOR);
      assertThat(r.statusCode()).as(adminPath).isEqualTo(403);
      assertThat(WireCodec.readTree(r.body()).path("message").asText())
          .as(adminPath)
          .endsWith(" needs a token with role admin; token 'ops-alice' has role operator");
    }
    assertThat(StackSupport.get(port, "/api/config", OPERATOR).statusCode()).isEqualTo(403);
    // the trigger of a schedule is an operator's: it passes the filter (404: no such schedule)
    assertThat(StackSupport.post(port, "/api/schedules/nightly/trigger", OPERATOR).statusCode())
        .isEqualTo(404);
    // a command answers its outcome: 200 applied, or 202 pending when its wait passed first
    assertThat(StackSupport.post(port, task + "/trigger", OPERATOR).statusCode()).isIn(200, 202);

    // an admin passes every rule: an admin path reaches its endpoint (404: no such schedule)
    assertThat(StackSupport.post(port, "/api/schedules/nightly/pause", ADMIN).statusCode())
        .isEqualTo(404);
    assertThat(StackSupport.get(port, "/api/audit?limit=1", ADMIN).statusCode()).isEqualTo(200);
    TaskEnvelope other = pendingTask();
    assertThat(StackSupport.post(port, "/api/tasks/" + other.id() + "/cancel", ADMIN).statusCode())
        .isIn(200, 202);

    assertThat(StackSupport.get(port, task, null).statusCode()).isEqualTo(401);
    assertThat(StackSupport.get(port, task, "wrong-" + Tokens.random()).statusCode())
        .isEqualTo(401);
    HttpResponse<String> dots = StackSupport.post(port, task + "/../../bulk/cancel", ADMIN);
    assertThat(dots.statusCode()).as(dots.body()).isEqualTo(400);
    assertThat(WireCodec.readTree(dots.body()).path("message").asText())
        .isEqualTo("the path has a '..' segment; send the path without it");
  }

  @Test
  void payloadsAreRedactedForViewersAndSensitiveFieldsForEveryRole() throws Exception {
    TaskEnvelope t = pendingTask();
    String task = "/api/tasks/" + t.id();

    HttpResponse<String> viewer = StackSupport.get(port, task, VIEWER);
    assertThat(WireCodec.readTree(viewer.body()).path("task").path("payload").asText())
        .isEqualTo("***");
    assertThat(viewer.body()).doesNotContain(CARD).doesNotContain("12/30");

    for (String token : List.of(OPERATOR, ADMIN)) {
      JsonNode payload =
          WireCodec.readTree(StackSupport.get(port, task, token).body())
              .path("task")
              .path("payload");
      assertThat(payload.path("card").path("number").asText()).isEqualTo("***");
      assertThat(payload.path("card").path("exp").asText()).isEqualTo("12/30");
      assertThat(payload.path("amount").asInt()).isEqualTo(5);
    }
  }

  @Test
  void aCancelIsAuditedOnTheTopicAndThroughTheApiWithoutThePayload() throws Exception {
    TaskEnvelope t = pendingTask();
    assertThat(StackSupport.post(port, "/api/tasks/" + t.id() + "/cancel", OPERATOR).statusCode())
        .isIn(200, 202);

    List<ConsumerRecord<String, byte[]>> records =
        StackSupport.readAll(bootstrap, topics.audit(), 1);
    JsonNode entry =
        records.stream()
            .map(r -> WireCodec.readTree(new String(r.value(), StandardCharsets.UTF_8)))
            .filter(n -> n.path("target").asText().equals("task/" + t.id()))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no audit record of the cancel: " + records));
    assertThat(entry.path("actor").asText()).isEqualTo("ops-alice");
    assertThat(entry.path("action").asText()).isEqualTo("cancel");
    assertThat(entry.path("outcome").asText()).isEqualTo("accepted");
    assertThat(entry.path("detail").asText()).isEqualTo("routingKey=" + t.id());
    assertThat(entry.path("at").asLong()).isPositive();
    records.forEach(
        r -> assertThat(new String(r.value(), StandardCharsets.UTF_8)).doesNotContain(CARD));

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              HttpResponse<String> r = StackSupport.get(port, "/api/audit?limit=500", OPERATOR);
              assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
              JsonNode found = null;
              for (JsonNode e : WireCodec.readTree(r.body()).path("entries")) {
                if (e.path("target").asText().equals("task/" + t.id())) {
                  found = e;
                }
              }
              assertThat(found).as(r.body()).isNotNull();
              assertThat(found.path("actor").asText()).isEqualTo("ops-alice");
              assertThat(found.path("atIso").asText()).endsWith("Z");
            });
    HttpResponse<String> bad = StackSupport.get(port, "/api/audit?limit=501", OPERATOR);
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(WireCodec.readTree(bad.body()).path("message").asText())
        .isEqualTo("limit: 501 is outside 1 to 500");
    long future = System.currentTimeMillis() + 3_600_000;
    assertThat(
            WireCodec.readTree(
                    StackSupport.get(port, "/api/audit?since=" + future, OPERATOR).body())
                .path("entries"))
        .isEmpty();
  }

  @Test
  @SuppressWarnings("unchecked")
  void theOpenApiDocumentDescribesEveryRouteOfTheApp() throws Exception {
    HttpResponse<String> r = StackSupport.get(port, "/api/openapi.yml", VIEWER);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/yaml"));
    Map<String, Object> doc = new Yaml().load(r.body());
    Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) doc.get("paths");
    TreeSet<String> documented = new TreeSet<>();
    paths.forEach((path, ops) -> ops.keySet().forEach(m -> documented.add(m + " " + shape(path))));

    TreeSet<String> routes = new TreeSet<>();
    server
        .getApplicationContext()
        .getBean(Router.class)
        .uriRoutes()
        .forEach(
            route -> {
              // Micronaut answers HEAD wherever it answers GET: the GET documents both
              String method = route.getHttpMethodName().toLowerCase(Locale.ROOT);
              routes.add(
                  (method.equals("head") ? "get" : method)
                      + " "
                      + shape(route.getUriMatchTemplate().toString()));
            });
    assertThat(routes).contains("get /api/tasks/{}", "post /api/session", "get /api/audit");
    assertThat(documented)
        .as("every route of the app is in openapi.yml (add the missing ones there)")
        .containsAll(routes);
  }

  /**
   * A path template with its variables as {@code {}} and without the optional and query parts
   * Micronaut adds ({@code {/selector}}, {@code {?x}}).
   */
  private static String shape(String template) {
    return template
        .replaceAll("\\{[/?&][^}]*}", "")
        .replaceAll("\\{[^}]*}", "{}")
        .replaceAll("(.)/$", "$1");
  }

  @Test
  void aBrowserSignsInWritesWithItsCsrfTokenOnlyAndSignsOut() throws Exception {
    TaskEnvelope t = pendingTask();
    Map<String, String> json = Map.of("Content-Type", "application/json");

    HttpResponse<String> wrong =
        send("POST", "/api/session", "{\"token\":\"" + Tokens.random() + "\"}", json);
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.headers().firstValue("Set-Cookie")).isEmpty();
    HttpResponse<String> noToken = send("POST", "/api/session", "{}", json);
    assertThat(noToken.statusCode()).isEqualTo(400);
    assertThat(WireCodec.readTree(noToken.body()).path("error").asText()).isEqualTo("bad-request");

    HttpResponse<String> in =
        send("POST", "/api/session", "{\"token\":\"" + OPERATOR + "\"}", json);
    assertThat(in.statusCode()).as(in.body()).isEqualTo(200);
    String setCookie = in.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(setCookie)
        .startsWith("tasklane_session=")
        .containsIgnoringCase("HttpOnly")
        .containsIgnoringCase("SameSite=Strict")
        .doesNotContain("Secure")
        .doesNotContain(OPERATOR);
    String cookie = setCookie.substring(0, setCookie.indexOf(';'));
    JsonNode session = WireCodec.readTree(in.body());
    assertThat(session.path("name").asText()).isEqualTo("ops-alice");
    assertThat(session.path("role").asText()).isEqualTo("operator");
    String csrf = session.path("csrf").asText();
    assertThat(csrf).hasSizeGreaterThanOrEqualTo(43);

    HttpResponse<String> me = send("GET", "/api/session", null, Map.of("Cookie", cookie));
    assertThat(WireCodec.readTree(me.body()).path("csrf").asText()).isEqualTo(csrf);
    assertThat(send("GET", "/api/tasks/" + t.id(), null, Map.of("Cookie", cookie)).statusCode())
        .isEqualTo(200);

    String cancel = "/api/tasks/" + t.id() + "/cancel";
    HttpResponse<String> noCsrf = send("POST", cancel, null, Map.of("Cookie", cookie));
    assertThat(noCsrf.statusCode()).isEqualTo(403);
    assertThat(WireCodec.readTree(noCsrf.body()).path("error").asText()).isEqualTo("csrf");
    HttpResponse<String> badCsrf =
        send("POST", cancel, null, Map.of("Cookie", cookie, "X-CSRF-Token", csrf + "x"));
    assertThat(badCsrf.statusCode()).isEqualTo(403);
    HttpResponse<String> withCsrf =
        send("POST", cancel, null, Map.of("Cookie", cookie, "X-CSRF-Token", csrf));
    assertThat(withCsrf.statusCode()).as(withCsrf.body()).isIn(200, 202);
    // an operator's session is still no admin
    assertThat(
            send(
                    "POST",
                    "/api/tasks/bulk/cancel",
                    null,
                    Map.of("Cookie", cookie, "X-CSRF-Token", csrf))
                .statusCode())
        .isEqualTo(403);

    assertThat(send("DELETE", "/api/session", null, Map.of("Cookie", cookie)).statusCode())
        .isEqualTo(403);
    HttpResponse<String> out =
        send("DELETE", "/api/session", null, Map.of("Cookie", cookie, "X-CSRF-Token", csrf));
    assertThat(out.statusCode()).isEqualTo(200);
    assertThat(out.headers().firstValue("Set-Cookie"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("tasklane_session=;"));
    assertThat(send("GET", "/api/session", null, Map.of("Cookie", cookie)).statusCode())
        .isEqualTo(401);
  }

  @Test
  void everyResponseCarriesTheSecurityHeaders() throws Exception {
    for (HttpResponse<String> r :
        List.of(
            StackSupport.get(port, "/api/openapi.yml", VIEWER),
            StackSupport.get(port, "/api/tasks/" + UUID.randomUUID(), null),
            StackSupport.post(port, "/api/tasks/bulk/cancel", VIEWER))) {
      assertThat(r.headers().firstValue("Content-Security-Policy"))
          .as(r.uri().toString())
          .hasValueSatisfying(
              v ->
                  assertThat(v)
                      .contains("default-src 'self'")
                      .contains("script-src 'self'")
                      .contains("frame-ancestors 'none'")
                      .doesNotContain("unsafe-inline"));
      assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
      assertThat(r.headers().firstValue("X-Frame-Options")).hasValue("DENY");
      assertThat(r.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
      assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-store");
    }
    HttpResponse<String> health = StackSupport.get(port, "/health", null);
    assertThat(health.headers().firstValue("X-Frame-Options")).hasValue("DENY");
  }

  @Test
  void theConsolesStaticAssetsNeedNoTokenButNothingElseComesThroughTheirPrefix() throws Exception {
    HttpResponse<String> page = StackSupport.get(port, "/console/", null);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("text/html"));
    assertThat(page.body())
        .contains("<script type=\"module\" src=\"/console/js/app.js\"></script>");
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .hasValueSatisfying(v -> assertThat(v).contains("script-src 'self'"));
    assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
    assertThat(StackSupport.get(port, "/console", null).body()).isEqualTo(page.body());
    HttpResponse<String> script = StackSupport.get(port, "/console/js/app.js", null);
    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(script.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("text/javascript"));
    assertThat(script.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    HttpResponse<String> chart = StackSupport.get(port, "/console/vendor/uPlot.iife.min.js", null);
    assertThat(chart.statusCode()).isEqualTo(200);
    assertThat(chart.body()).contains("uPlot");
    HttpResponse<String> root = StackSupport.get(port, "/", null);
    assertThat(root.statusCode()).isEqualTo(303);
    assertThat(root.headers().firstValue("Location")).hasValue("/console/");

    HttpResponse<String> nope = StackSupport.get(port, "/console/nope.js", null);
    assertThat(nope.statusCode()).isEqualTo(404);
    assertThat(WireCodec.readTree(nope.body()).path("error").asText()).isEqualTo("not-found");
    assertThat(StackSupport.get(port, "/console/openapi.yml", null).statusCode()).isEqualTo(404);
    for (String sneaky :
        List.of(
            "/console/../api/tasks/counts",
            "/console/%2e%2e/api/tasks/counts",
            "/console//api/tasks/counts",
            "/console/../../io/tasklane/scheduler/openapi.yml")) {
      HttpResponse<String> r = StackSupport.get(port, sneaky, null);
      assertThat(r.statusCode()).as(sneaky).isIn(400, 401, 404);
      assertThat(r.body()).as(sneaky).doesNotContain("\"counts\"", "openapi:");
    }
    assertThat(StackSupport.post(port, "/console/js/app.js", null).statusCode()).isEqualTo(401);
    assertThat(StackSupport.get(port, "/api/tasks/counts", null).statusCode()).isEqualTo(401);
  }
}
