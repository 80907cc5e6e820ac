package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.ApiSettings;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.SchedulerException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactorTest {
  static final String TASK =
      "{\"state\":\"PENDING\",\"task\":{\"id\":\"x\",\"handler\":\"pay\",\"payload\":"
          + "{\"card\":{\"number\":\"4111\",\"exp\":\"12/30\"},\"items\":[\"a\",\"b\"],\"n\":1}},"
          + "\"lastRefusedDuplicate\":{\"payload\":{\"card\":{\"number\":\"4222\"}}}}";

  private static ApiSettings settings(boolean viewerPayloads) {
    return new ApiSettings(
        Map.of("pay", List.of("/card/number", "/items/1", "/absent/x")),
        viewerPayloads,
        null,
        null,
        ApiSettings.DEFAULT_MAX_SESSIONS);
  }

  @Test
  void sensitiveFieldsAreHiddenFromEveryRoleIncludingInNestedPayloadsOfTheSameHandler() {
    JsonNode out = WireCodec.readTree(new Redactor(settings(false)).apply(TASK, Role.ADMIN));
    JsonNode p = out.path("task").path("payload");
    assertThat(p.path("card").path("number").asText()).isEqualTo("***");
    assertThat(p.path("card").path("exp").asText()).isEqualTo("12/30");
    assertThat(p.path("items").get(0).asText()).isEqualTo("a");
    assertThat(p.path("items").get(1).asText()).isEqualTo("***");
    assertThat(p.path("n").asInt()).isEqualTo(1);
    assertThat(p.has("absent")).isFalse();
    assertThat(
            out.path("lastRefusedDuplicate").path("payload").path("card").path("number").asText())
        .isEqualTo("***");
    assertThat(out.path("state").asText()).isEqualTo("PENDING");
  }

  static final String FAILED =
      "{\"state\":\"RETRYING\",\"task\":{\"id\":\"x\",\"handler\":\"pay\","
          + "\"headers\":{\"customer\":\"alice@example.com\"},\"payload\":{\"n\":1}},"
          + "\"lastError\":{\"type\":\"java.lang.IllegalStateException\","
          + "\"message\":\"card 4111 declined\",\"stack\":\"at Pay.charge(4111)\"},"
          + "\"history\":[{\"attempt\":1,\"outcome\":\"FAILED\",\"error\":\"card 4111\"}]}";

  static final String LOGS =
      "{\"id\":\"x\",\"lines\":[{\"level\":\"INFO\",\"message\":\"charging 4111\"}]}";

  @Test
  void aViewerWhoSeesNoPayloadSeesNoErrorTextHeadersOrLogLinesEither() {
    Redactor hiding = new Redactor(settings(false));
    String task = hiding.apply(FAILED, Role.VIEWER);
    assertThat(task).doesNotContain("4111").doesNotContain("alice@example.com");
    JsonNode t = WireCodec.readTree(task);
    assertThat(t.path("lastError").path("type").asText())
        .isEqualTo("java.lang.IllegalStateException");
    assertThat(t.path("lastError").path("message").asText()).isEqualTo("***");
    assertThat(t.path("history").get(0).path("outcome").asText()).isEqualTo("FAILED");
    assertThat(t.path("task").path("headers").asText()).isEqualTo("***");
    String logs = hiding.apply(LOGS, Role.VIEWER);
    assertThat(logs).doesNotContain("4111").contains("INFO");

    // operators, and viewers allowed payloads, see the text as it was written
    assertThat(hiding.apply(FAILED, Role.OPERATOR)).contains("card 4111 declined");
    assertThat(hiding.apply(LOGS, Role.OPERATOR)).contains("charging 4111");
    Redactor showing = new Redactor(settings(true));
    assertThat(showing.apply(FAILED, Role.VIEWER)).contains("alice@example.com");
    assertThat(showing.apply(LOGS, Role.VIEWER)).contains("charging 4111");
  }

  @Test
  void viewersSeeNoPayloadUnlessAllowedAndThenStillNoSensitiveField() {
    String hidden = new Redactor(settings(false)).apply(TASK, Role.VIEWER);
    assertThat(WireCodec.readTree(hidden).path("task").path("payload").asText()).isEqualTo("***");
    assertThat(hidden).doesNotContain("4111").doesNotContain("12/30").doesNotContain("4222");

    JsonNode allowed = WireCodec.readTree(new Redactor(settings(true)).apply(TASK, Role.VIEWER));
    assertThat(allowed.path("task").path("payload").path("card").path("exp").asText())
        .isEqualTo("12/30");
    assertThat(allowed.path("task").path("payload").path("card").path("number").asText())
        .isEqualTo("***");
  }

  @Test
  void aPayloadWithoutAHandlerIsHiddenWhole() {
    String out = new Redactor(settings(true)).apply("{\"payload\":{\"a\":1}}", Role.ADMIN);
    assertThat(WireCodec.readTree(out).path("payload").asText()).isEqualTo("***");
  }

  @Test
  void badPointersAndHandlerNamesAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> new ApiSettings(Map.of("pay", List.of("card")), false, null, null, 10))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("tasklane.scheduler.api.redact.pay: 'card' is not a JSON pointer");
    assertThatThrownBy(
            () -> new ApiSettings(Map.of("Bad Name", List.of("/a")), false, null, null, 10))
        .hasMessageContaining(
            "tasklane.scheduler.api.redact.Bad Name: 'Bad Name' is not a handler");
    assertThatThrownBy(() -> new ApiSettings(Map.of(), false, null, null, 0))
        .hasMessage("tasklane.scheduler.api.max-sessions: 0 is outside 1 to 100000");
  }

  @Test
  void aSearchCannotProbeHiddenPayloads() {
    Redactor strict = new Redactor(settings(false));
    JsonPointer orderId = JsonPointer.compile("/orderId");
    assertThat(strict.payloadSearchRefusal(orderId, Role.VIEWER))
        .contains("viewer token cannot search payloads");
    assertThat(strict.payloadSearchRefusal(orderId, Role.OPERATOR)).isNull();
    assertThat(new Redactor(settings(true)).payloadSearchRefusal(orderId, Role.VIEWER)).isNull();
    for (String p : List.of("/card/number", "/card", "/card/number/x", "", "/items/1")) {
      assertThat(strict.payloadSearchRefusal(JsonPointer.compile(p), Role.ADMIN))
          .as(p)
          .contains("redacted field");
    }
    for (String p : List.of("/cardnumber", "/card/exp", "/items/0", "/items/10")) {
      assertThat(strict.payloadSearchRefusal(JsonPointer.compile(p), Role.ADMIN)).as(p).isNull();
    }
  }
}
