package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.WireCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The typed response records of the API against {@code openapi.yml}: each record's JSON properties
 * (as the API's mapper writes them) are exactly its schema's, nested records, lists of records and
 * parts written in line included, so the document cannot drift from what the API answers. Every
 * {@code *Response} record of the API must be listed here.
 */
class ResponseSchemaTest {
  private static final ObjectMapper MAPPER = WireCodec.mapper();

  /** Each response record and the schema (a component, or an endpoint's 200 answer) it answers. */
  private static final Map<Class<?>, String> SCHEMAS =
      Map.ofEntries(
          Map.entry(SessionResponse.class, "#/components/schemas/Session"),
          Map.entry(BatchResponse.class, "#/components/schemas/Batch"),
          Map.entry(BatchListResponse.class, "/api/batches get 200"),
          Map.entry(JobResponse.class, "#/components/schemas/Job"),
          Map.entry(AuditResponse.class, "/api/audit get 200"),
          Map.entry(AuditResponse.Entry.class, "#/components/schemas/AuditEntry"),
          Map.entry(WorkersResponse.class, "/api/workers get 200"),
          Map.entry(WorkersResponse.Worker.class, "#/components/schemas/Worker"),
          Map.entry(ReportResponse.class, "#/components/schemas/Report"),
          Map.entry(ReportResponse.Percentiles.class, "#/components/schemas/Percentiles"),
          Map.entry(HandlerResponse.class, "#/components/schemas/Handler"),
          Map.entry(HandlersResponse.class, "/api/handlers get 200"),
          Map.entry(LanesResponse.class, "#/components/schemas/HandlerLanes"),
          Map.entry(RateLimitsResponse.class, "#/components/schemas/RateLimits"),
          Map.entry(RateLimitsResponse.Limit.class, "#/components/schemas/RateLimit"),
          Map.entry(TaskResponse.class, "#/components/schemas/TaskView"),
          Map.entry(TaskListingResponse.class, "#/components/schemas/TaskListing"),
          Map.entry(TaskCountsResponse.class, "/api/tasks/counts get 200"),
          Map.entry(TaskActionResponse.class, "#/components/schemas/ActionResult"),
          Map.entry(ScheduleResponse.class, "#/components/schemas/Schedule"),
          Map.entry(ScheduleListResponse.class, "/api/schedules get 200"),
          Map.entry(ScheduleActionResponse.class, "#/components/schemas/ScheduleActionResult"),
          Map.entry(TaskLogsResponse.class, "/api/tasks/{id}/logs get 200"),
          Map.entry(RelayResponse.class, "/api/relay get 200"),
          Map.entry(ErrorResponse.class, "#/components/schemas/Error"),
          Map.entry(AlertsResponse.class, "/api/alerts get 200"),
          Map.entry(SchedulePreviewResponse.class, "/api/schedules/preview get 200"),
          Map.entry(SchedulePreviewResponse.Invalid.class, "/api/schedules/preview get 400"),
          Map.entry(ScheduleTriggerResponse.class, "/api/schedules/{name}/trigger post 202"),
          Map.entry(SignOutResponse.class, "/api/session delete 200"),
          Map.entry(JobStartedResponse.class, "/api/tasks/bulk/retry-dead post 202"));

  @SuppressWarnings("unchecked")
  private static final Map<String, Object> DOC = new Yaml().load(OpenApiController.read());

  @Test
  void everyResponseRecordMatchesItsSchema() {
    List<String> mismatches = new ArrayList<>();
    SCHEMAS.forEach(
        (type, where) ->
            compare(MAPPER.constructType(type), schema(where), type.getSimpleName(), mismatches));
    assertThat(mismatches).isEmpty();
  }

  @Test
  void everyResponseRecordOfTheApiIsChecked() throws IOException {
    Path dir = Path.of("src/main/java/io/tasklane/scheduler/internal/api");
    Set<String> records = new TreeSet<>();
    try (Stream<Path> files = Files.list(dir)) {
      files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith("Response.java"))
          .forEach(n -> records.add(n.substring(0, n.length() - ".java".length())));
    }
    Set<String> checked = new TreeSet<>();
    SCHEMAS.keySet().forEach(c -> checked.add(c.getSimpleName()));
    assertThat(checked).containsAll(records);
  }

  /**
   * The schedule definition (a PUT's body, a GET's {@code definition}) is a wire record, not a
   * response record: its JSON with every field set has exactly the schema's properties.
   */
  @Test
  void theScheduleDefinitionSchemaHasEveryFieldOfTheDefinition() {
    ScheduleDefinition every =
        ScheduleDefinition.builder()
            .name("n")
            .version(1)
            .handler("a.b")
            .payload(WireCodec.readTree("{\"x\":1}"))
            .cron("0 2 * * *")
            .every("5m")
            .zone("UTC")
            .startAt(1L)
            .endAt(2L)
            .enabled(true)
            .misfire("SKIP")
            .overlap(ScheduleDefinition.Overlap.QUEUE)
            .routing(ScheduleDefinition.Routing.ONE)
            .shards(1)
            .children(List.of("c"))
            .maxAttempts(2)
            .timeoutMs(1_000)
            .backoff(RetryPolicy.sidekiq())
            .origin("api:ops")
            .orderingKey("k")
            .concurrencyKey("t")
            .priority(9)
            .build();
    Set<String> json = new TreeSet<>();
    MAPPER.valueToTree(every).fieldNames().forEachRemaining(json::add);
    assertThat(json)
        .isEqualTo(
            new TreeSet<>(properties(schema("#/components/schemas/ScheduleDefinition")).keySet()));
  }

  @Test
  void aPropertyMissingFromTheSchemaIsFound() {
    List<String> mismatches = new ArrayList<>();
    compare(
        MAPPER.constructType(JobResponse.class),
        schema("#/components/schemas/Session"),
        "JobResponse",
        mismatches);
    assertThat(mismatches).isNotEmpty();
  }

  private static void compare(
      JavaType type, Map<String, Object> schema, String path, List<String> mismatches) {
    Map<String, Object> props = properties(schema);
    List<BeanPropertyDefinition> defs = written(type);
    Set<String> json = new TreeSet<>();
    defs.forEach(d -> json.add(d.getName()));
    if (!json.equals(props.keySet())) {
      mismatches.add(path + ": the record writes " + json + ", the schema has " + props.keySet());
      return;
    }
    for (BeanPropertyDefinition d : defs) {
      JavaType t = d.getPrimaryType();
      Map<String, Object> p = resolve(asMap(props.get(d.getName())));
      if (t.isCollectionLikeType() && isRecord(t.getContentType())) {
        compare(
            t.getContentType(),
            resolve(asMap(p.get("items"))),
            path + "." + d.getName() + "[]",
            mismatches);
      } else if (isRecord(t)) {
        compare(t, p, path + "." + d.getName(), mismatches);
      }
    }
  }

  /**
   * The properties {@code type} writes, with those of a part written in line ({@code
   * JsonUnwrapped}) in the part's place.
   */
  private static List<BeanPropertyDefinition> written(JavaType type) {
    List<BeanPropertyDefinition> out = new ArrayList<>();
    for (BeanPropertyDefinition d :
        MAPPER.getSerializationConfig().introspect(type).findProperties()) {
      if (MAPPER
              .getSerializationConfig()
              .getAnnotationIntrospector()
              .findUnwrappingNameTransformer(d.getPrimaryMember())
          != null) {
        out.addAll(written(d.getPrimaryType()));
      } else {
        out.add(d);
      }
    }
    return out;
  }

  private static boolean isRecord(JavaType t) {
    return t != null && t.getRawClass().isRecord();
  }

  private static Map<String, Object> properties(Map<String, Object> schema) {
    Map<String, Object> p = asMap(resolve(schema).get("properties"));
    return p == null ? Map.of() : p;
  }

  /**
   * A component ({@code #/components/schemas/X}) or an endpoint's JSON answer ({@code path method
   * status}).
   */
  private static Map<String, Object> schema(String where) {
    if (where.startsWith("#/")) {
      return resolve(Map.of("$ref", where));
    }
    String[] w = where.split(" ");
    Map<String, Object> op = asMap(asMap(asMap(DOC.get("paths")).get(w[0])).get(w[1]));
    Map<String, Object> answer = asMap(asMap(op.get("responses")).get(w[2]));
    return resolve(
        asMap(asMap(asMap(answer.get("content")).get("application/json")).get("schema")));
  }

  /**
   * The schema {@code schema} refers to; {@code allOf} one schema (how OpenAPI 3.0 marks a
   * reference nullable) is that schema.
   */
  private static Map<String, Object> resolve(Map<String, Object> schema) {
    if (schema != null
        && schema.get("allOf") instanceof List<?> all
        && all.size() == 1
        && !schema.containsKey("properties")) {
      return resolve(asMap(all.get(0)));
    }
    if (schema == null || !schema.containsKey("$ref")) {
      return schema;
    }
    String[] parts = ((String) schema.get("$ref")).substring(2).split("/");
    Map<String, Object> node = DOC;
    for (String part : parts) {
      node = asMap(node.get(part));
    }
    return resolve(node);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(Object o) {
    return (Map<String, Object>) o;
  }
}
