package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.http.MutableHttpResponse;
import io.tasklane.core.WireCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** Every error answer carries a code and a message, whichever part of the API makes it. */
class ErrorResponseTest {
  /** A code: lower-case words joined by hyphens. */
  private static final Pattern KEBAB = Pattern.compile("[a-z]+(-[a-z]+)*");

  /**
   * A status and a code given to the calls that make error answers ({@code ApiErrors.json}, {@code
   * TaskSearch.error}, {@code ScheduleCommands.Refused}, {@link BadQueryException}, ...).
   */
  private static final Pattern CODE_ARGUMENT =
      Pattern.compile(
          "\\b(?:json|answer|error|Refused|BadQueryException|this)\\(\\s*[^,;\"]+?\\s*,\\s*\"([^\"]*)\"\\s*,");

  /** The codes of {@link ErrorResponse#code}'s switch. */
  private static final Pattern SWITCH_CODE = Pattern.compile("->\\s*\"([^\"]*)\";");

  private static String code(MutableHttpResponse<?> r) {
    return WireCodec.readTree(r.getBody(String.class).orElseThrow()).path("error").asText();
  }

  @Test
  void anOwnerReadErrorNamesTheCodeOfItsStatusAndItsMessage() {
    assertThat(OwnerForward.error(503, "scheduler is starting").json())
        .isEqualTo("{\"error\":\"unavailable\",\"message\":\"scheduler is starting\"}");
    assertThat(OwnerForward.error(404, "no task x").json())
        .isEqualTo("{\"error\":\"not-found\",\"message\":\"no task x\"}");
    assertThat(OwnerForward.error(502, "owner did not answer").json())
        .isEqualTo("{\"error\":\"unavailable\",\"message\":\"owner did not answer\"}");
  }

  @Test
  void aControllerErrorKeepsItsCode() {
    String body = (String) ApiErrors.json(400, "invalid", "cron: bad").body();
    assertThat(WireCodec.readTree(body).path("error").asText()).isEqualTo("invalid");
    assertThat(WireCodec.readTree(body).path("message").asText()).isEqualTo("cron: bad");
    assertThat((String) ApiErrors.json(400, "not a task id").body())
        .isEqualTo("{\"error\":\"invalid-parameter\",\"message\":\"not a task id\"}");
  }

  @Test
  void theMessageOfAnEarlierInstancesErrorIsItsErrorText() {
    assertThat(ErrorResponse.messageOf("{\"error\":\"unavailable\",\"message\":\"moving\"}"))
        .isEqualTo("moving");
    assertThat(ErrorResponse.messageOf("{\"error\":\"ownership moved; retry\"}"))
        .isEqualTo("ownership moved; retry");
  }

  @Test
  void theCodesOnceWrittenInSnakeCaseAreKebabCase() {
    assertThat(code(ApiErrors.badRequest("token: send {\"token\":\"<api token>\"}")))
        .isEqualTo("bad-request");
    MutableHttpResponse<?> console = new ConsoleController().asset("nope.js");
    assertThat(console.code()).isEqualTo(404);
    assertThat(code(console)).isEqualTo("not-found");
    MutableHttpResponse<?> limited =
        TokenFilter.tooManyFailures(
            null, new AuthFailures.Block(6, false), "10.0.0.1", "session-sign-in", "session");
    assertThat(limited.code()).isEqualTo(429);
    assertThat(code(limited)).isEqualTo("too-many-failures");
    assertThat(limited.getHeaders().get("Retry-After")).isEqualTo("6");
  }

  @Test
  void everyCodeTheApiAnswersIsKebabCaseAndListedInOpenapi() throws IOException {
    Set<String> used = new TreeSet<>();
    Path dir = Path.of("src/main/java/io/tasklane/scheduler/internal/api");
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String source = Files.readString(f);
        Matcher m = CODE_ARGUMENT.matcher(source);
        while (m.find()) {
          used.add(m.group(1));
        }
        if (f.getFileName().toString().equals("ErrorResponse.java")) {
          Matcher s = SWITCH_CODE.matcher(source);
          while (s.find()) {
            used.add(s.group(1));
          }
        }
      }
    }
    assertThat(used).contains("bad-request", "not-found", "too-many-sessions", "too-many-failures");
    assertThat(used).allSatisfy(c -> assertThat(c).matches(KEBAB));

    Map<String, Object> doc = new Yaml().load(OpenApiController.read());
    String description =
        (String)
            at(doc, "components", "schemas", "Error", "properties", "error").get("description");
    String list = description.substring(description.indexOf("one of:") + "one of:".length());
    Set<String> listed =
        Arrays.stream(list.split(","))
            .map(String::strip)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(listed).as("the codes openapi.yml lists").isEqualTo(used);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> at(Map<String, Object> doc, String... keys) {
    Map<String, Object> node = doc;
    for (String k : List.of(keys)) {
      node = (Map<String, Object>) node.get(k);
    }
    return node;
  }
}
