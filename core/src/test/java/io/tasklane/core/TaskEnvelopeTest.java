package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.NullNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskEnvelopeTest {
  static final long NOW = 1_767_225_600_000L;
  static final String ID = "0190f3a2-7b1c-7e4a-9d2b-3c4d5e6f7a8b";
  static final String DEP = "0190f3a2-7b1c-7e4a-9d2b-000000000001";

  static TaskEnvelope full() {
    return TaskEnvelope.builder()
        .id(ID)
        .handler("order.cancel")
        .key("order-42")
        .orderingKey("customer-7")
        .payload(WireCodec.readTree("{\"orderId\":42}"))
        .dueAt(NOW + 1_000)
        .maxAttempts(5)
        .timeoutMs(30_000)
        .backoff(RetryPolicy.fixed(Duration.ofMinutes(1)))
        .dependsOn(List.of(DEP))
        .headers(Map.of("traceparent", "00-abc"))
        .createdAt(NOW)
        .source(new Source("tasklane_outbox", 7))
        .shard(new Shard(0, 4))
        .options(TaskOptions.builder().waitTimeout(Duration.ofMinutes(10)).build())
        .build();
  }

  @Test
  void builderDefaultsAreThoseOfANewTask() {
    TaskEnvelope t = TaskEnvelope.builder().id(ID).handler("email.send").build();
    assertThat(t.v()).isEqualTo(Wire.VERSION);
    assertThat(t.maxAttempts()).isEqualTo(TaskEnvelope.DEFAULT_MAX_ATTEMPTS);
    assertThat(t.timeoutMs()).isEqualTo(TaskEnvelope.DEFAULT_TIMEOUT_MS);
    assertThat(t.backoff()).isEqualTo(RetryPolicy.sidekiq());
    assertThat(t.payload()).isEqualTo(NullNode.getInstance());
    assertThat(t.dependsOn()).isEmpty();
    assertThat(t.headers()).isEmpty();
    assertThat(t.key()).isNull();
    assertThat(t.orderingKey()).isNull();
    assertThat(t.source()).isNull();
    assertThat(t.shard()).isNull();
    assertThat(t.options()).isEqualTo(TaskOptions.none());
    assertThat(t.dueAt()).isZero();
    assertThat(t.routingKey()).isEqualTo(ID);
  }

  @Test
  void builderSetsEveryField() {
    TaskEnvelope t = full();
    assertThat(t.id()).isEqualTo(ID);
    assertThat(t.handler()).isEqualTo("order.cancel");
    assertThat(t.key()).isEqualTo("order-42");
    assertThat(t.orderingKey()).isEqualTo("customer-7");
    assertThat(t.routingKey()).isEqualTo("customer-7");
    assertThat(t.payload().get("orderId").asInt()).isEqualTo(42);
    assertThat(t.dueAt()).isEqualTo(NOW + 1_000);
    assertThat(t.maxAttempts()).isEqualTo(5);
    assertThat(t.timeoutMs()).isEqualTo(30_000);
    assertThat(t.backoff()).isEqualTo(RetryPolicy.fixed(Duration.ofMinutes(1)));
    assertThat(t.dependsOn()).containsExactly(DEP);
    assertThat(t.headers()).containsEntry("traceparent", "00-abc");
    assertThat(t.createdAt()).isEqualTo(NOW);
    assertThat(t.source()).isEqualTo(new Source("tasklane_outbox", 7));
    assertThat(t.shard()).isEqualTo(new Shard(0, 4));
    assertThat(t.options().waitTimeoutMs()).isEqualTo(600_000L);
  }

  @Test
  void toBuilderRoundTripsAndChangesOnlyWhatItIsTold() {
    TaskEnvelope t = full();
    assertThat(t.toBuilder().build()).isEqualTo(t);
    TaskEnvelope later = t.toBuilder().dueAt(NOW + 5_000).build();
    assertThat(later.dueAt()).isEqualTo(NOW + 5_000);
    assertThat(later.toBuilder().dueAt(t.dueAt()).build()).isEqualTo(t);
  }

  @Test
  void withersChangeOneField() {
    TaskEnvelope t = full();
    assertThat(t.withDueAt(1L)).isEqualTo(t.toBuilder().dueAt(1L).build());
    assertThat(t.withSource(null)).isEqualTo(t.toBuilder().source(null).build());
    assertThat(t.withShard(null)).isEqualTo(t.toBuilder().shard(null).build());
    assertThat(t.withShard(null).source()).isEqualTo(t.source());
  }

  @Test
  void aBuilderCopiesItsCollections() {
    var deps = new java.util.ArrayList<>(List.of(DEP));
    TaskEnvelope t = TaskEnvelope.builder().id(ID).handler("a").dependsOn(deps).build();
    deps.clear();
    assertThat(t.dependsOn()).containsExactly(DEP);
  }

  @Test
  void validationNamesAMissingIdOrHandler() {
    var validator = new TaskValidator(TaskLimits.DEFAULT);
    TaskEnvelope noId = TaskEnvelope.builder().handler("email.send").dueAt(NOW).build();
    assertThatThrownBy(() -> validator.validate(noId, 4, NOW))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("id:");
    TaskEnvelope noHandler = TaskEnvelope.builder().id(ID).dueAt(NOW).build();
    assertThatThrownBy(() -> validator.validate(noHandler, 4, NOW))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("handler:")
        .hasMessageContaining("missing");
    assertThat(validator.validate(full().toBuilder().dependsOn(List.of()).build(), 4, NOW))
        .isNotNull();
  }

  @Test
  void theWireFormOfABuiltTaskDecodesToTheSameTask() {
    TaskEnvelope t = full();
    assertThat(WireCodec.decodeTaskRecord(WireCodec.encode(t))).isEqualTo(t);
  }

  @Test
  void optionsTravelAsOneFieldAndAreLeftOutWhenEmpty() {
    TaskEnvelope t = full();
    assertThat(WireCodec.readTree(WireCodec.encodeToString(t)).get("options").toString())
        .isEqualTo("{\"v\":1,\"waitTimeoutMs\":600000}");
    TaskEnvelope plain = t.toBuilder().options(null).build();
    assertThat(WireCodec.readTree(WireCodec.encodeToString(plain)).has("options")).isFalse();
    assertThat(WireCodec.decodeTaskRecord(WireCodec.encode(plain))).isEqualTo(plain);
  }

  @Test
  void optionsOfANewerWriterAreReadWithoutTheFieldsThisReaderDoesNotKnow() {
    String json =
        WireCodec.encodeToString(full())
            .replace(
                "\"waitTimeoutMs\":600000", "\"waitTimeoutMs\":600000,\"fromTheFuture\":{\"x\":1}");
    assertThat(json).contains("fromTheFuture");
    TaskEnvelope read = (TaskEnvelope) WireCodec.decodeTaskRecord(json.getBytes());
    assertThat(read).isEqualTo(full());
  }
}
