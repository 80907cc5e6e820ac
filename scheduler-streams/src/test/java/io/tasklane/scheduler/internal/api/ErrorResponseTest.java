package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.WireCodec;
import org.junit.jupiter.api.Test;

/** Every error answer carries a code and a message, whichever part of the API makes it. */
class ErrorResponseTest {
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
}
