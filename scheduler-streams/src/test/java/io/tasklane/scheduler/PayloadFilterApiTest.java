package io.tasklane.scheduler;

import static io.tasklane.scheduler.StackSupport.OPERATOR;
import static io.tasklane.scheduler.StackSupport.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.Topics;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Payload filters of searches and bulk jobs on the real broker: one shape (a flat field path and a
 * scalar value) for both, a redacted field refused whatever shape the filter takes, and a filter's
 * value never echoed by a job's view or its audit record.
 */
@TasklaneStack
class PayloadFilterApiTest {
  static final String HANDLER = "payload.filter";
  static final String ADMIN = Tokens.random();

  /** The sensitive field's value: what an array- or object-valued filter would probe for. */
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
        StackSupport.rolesConfig(bootstrap, topics, stateDir, ADMIN, HANDLER, "/card/number");
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

  /** A task due in an hour (PENDING until then) with a card number and {@code ref}. */
  private static TaskEnvelope pendingTask(String ref) throws Exception {
    TaskEnvelope t =
        TaskEnvelope.builder()
            .id(UUID.randomUUID().toString())
            .handler(HANDLER)
            .payload(
                WireCodec.readTree(
                    "{\"card\":{\"number\":\"" + CARD + "\"},\"ref\":\"" + ref + "\"}"))
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

  private static String q(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String bulkBody(String payloadJson) {
    return "{\"filter\":{\"handler\":\""
        + HANDLER
        + "\",\"payload\":"
        + payloadJson
        + "},\"asOf\":"
        + System.currentTimeMillis()
        + "}";
  }

  private static void assertRefused(HttpResponse<String> r, int status, String field, String why) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    String message = WireCodec.readTree(r.body()).path("message").asText();
    assertThat(message).as(r.body()).startsWith(field + ": ").contains(why);
    assertThat(r.body()).doesNotContain(CARD);
  }

  @Test
  void arrayAndObjectValuedPayloadFiltersOnASensitiveFieldAreRefusedForSearchAndBulk()
      throws Exception {
    pendingTask("r-" + UUID.randomUUID());
    String shape = "arrays and objects are refused";
    String hidden = "/card/number=" + CARD;

    // search: a repeated payload parameter (the query's array) and a JSON object for its value
    assertRefused(
        StackSupport.get(
            port,
            "/api/tasks?handler=" + HANDLER + "&payload=" + q(hidden) + "&payload=" + q(hidden),
            ADMIN),
        400,
        "payload",
        shape);
    assertRefused(
        StackSupport.get(
            port,
            "/api/tasks?handler="
                + HANDLER
                + "&payload="
                + q("{\"/card/number\":\"" + CARD + "\"}"),
            ADMIN),
        400,
        "payload",
        shape);

    // bulk: an array of filters and an object, each naming the sensitive field
    for (String payload :
        List.of(
            "[\"" + hidden + "\"]",
            "[\"/ref=x\",\"" + hidden + "\"]",
            "{\"/card/number\":\"" + CARD + "\"}",
            "{\"card\":{\"number\":\"" + CARD + "\"}}")) {
      assertRefused(
          StackSupport.post(port, "/api/tasks/bulk/retry-dead", ADMIN, bulkBody(payload)),
          400,
          "filter.payload",
          shape);
    }

    // a scalar filter on the sensitive field: refused to every role, search and bulk alike
    assertRefused(
        StackSupport.get(port, "/api/tasks?payload=" + q(hidden), ADMIN),
        403,
        "payload",
        "redacted field");
    assertRefused(
        StackSupport.post(
            port, "/api/tasks/bulk/retry-dead", ADMIN, bulkBody("\"" + hidden + "\"")),
        403,
        "payload",
        "redacted field");
    // a viewer, who sees no payloads, may not filter by any payload field
    assertRefused(
        StackSupport.get(port, "/api/tasks?payload=" + q("/ref=x"), VIEWER),
        403,
        "payload",
        "viewer token cannot search payloads");
  }

  @Test
  void aBulkJobsViewAndAuditRecordShowThePayloadFieldButNotItsValue() throws Exception {
    String ref = "ref-" + UUID.randomUUID();
    TaskEnvelope t = pendingTask(ref);
    pendingTask("other-" + UUID.randomUUID());

    // a scalar filter on a field that is not sensitive still works, for search and bulk
    HttpResponse<String> found =
        StackSupport.get(
            port, "/api/tasks?handler=" + HANDLER + "&payload=" + q("/ref=" + ref), OPERATOR);
    assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
    assertThat(WireCodec.readTree(found.body()).path("tasks"))
        .extracting(n -> n.path("id").asText())
        .containsExactly(t.id());

    HttpResponse<String> started =
        StackSupport.post(port, "/api/tasks/bulk/cancel", ADMIN, bulkBody("\"/ref=" + ref + "\""));
    assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
    String job = WireCodec.readTree(started.body()).path("job").asText();
    await()
        .atMost(Duration.ofSeconds(120))
        .untilAsserted(
            () -> {
              HttpResponse<String> r = StackSupport.get(port, "/api/jobs/" + job, VIEWER);
              JsonNode j = WireCodec.readTree(r.body());
              assertThat(j.path("state").asText()).as(r.body()).isEqualTo("DONE");
              assertThat(j.path("matched").asLong()).isEqualTo(1);
              assertThat(j.path("applied").asLong()).isEqualTo(1);
              assertThat(j.path("filter").path("payload").asText()).isEqualTo("/ref=***");
              assertThat(j.path("filter").path("handler").asText()).isEqualTo(HANDLER);
              assertThat(r.body()).doesNotContain(ref);
            });
    assertThat(
            WireCodec.readTree(StackSupport.get(port, "/api/tasks/" + t.id(), OPERATOR).body())
                .path("state")
                .asText())
        .isEqualTo("CANCELLED");

    List<ConsumerRecord<String, byte[]>> records =
        StackSupport.readAll(bootstrap, topics.audit(), 1);
    JsonNode entry =
        records.stream()
            .map(r -> WireCodec.readTree(new String(r.value(), StandardCharsets.UTF_8)))
            .filter(n -> n.path("target").asText().equals("job/" + job))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no audit record of the job: " + records));
    assertThat(entry.path("action").asText()).isEqualTo("bulk-cancel");
    assertThat(entry.path("detail").asText()).contains("payload=/ref=***").contains("matched=1");
    records.forEach(
        r ->
            assertThat(new String(r.value(), StandardCharsets.UTF_8))
                .doesNotContain(ref)
                .doesNotContain(CARD));
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              HttpResponse<String> r = StackSupport.get(port, "/api/audit?limit=500", OPERATOR);
              assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
              assertThat(r.body()).contains("job/" + job).doesNotContain(ref);
            });
  }
}
