package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The bad-input table of the contract: each row names the field and the limit. */
class TaskValidatorTest {
  static final long NOW = 1_767_225_600_000L;
  static final String ID = "0190f3a2-7b1c-7e4a-9d2b-3c4d5e6f7a8b";
  final TaskValidator validator = new TaskValidator(TaskLimits.DEFAULT);

  static TaskEnvelope good() {
    return TaskEnvelope.builder()
        .id(ID)
        .handler("email.send")
        .payload(WireCodec.readTree("{\"to\":\"a@b\"}"))
        .dueAt(NOW)
        .maxAttempts(5)
        .timeoutMs(30_000)
        .createdAt(NOW)
        .build();
  }

  static TaskEnvelope with(UnaryOperator<TaskEnvelope.Builder> change) {
    return change.apply(good().toBuilder()).build();
  }

  static UnaryOperator<TaskEnvelope.Builder> change(UnaryOperator<TaskEnvelope.Builder> change) {
    return change;
  }

  static Stream<Arguments> badInputs() {
    List<String> tooMany =
        IntStream.range(0, 101)
            .mapToObj(i -> String.format("0190f3a2-7b1c-7e4a-9d2b-%012d", i))
            .toList();
    var manyHeaders = new HashMap<String, String>();
    IntStream.range(0, 33).forEach(i -> manyHeaders.put("h" + i, "x"));
    return Stream.of(
        Arguments.of(
            "invalid handler name", change(b -> b.handler("Order Cancel")), "handler", "[a-z0-9]"),
        Arguments.of("missing handler", change(b -> b.handler(null)), "handler", "missing"),
        Arguments.of(
            "handler too long",
            change(b -> b.handler("a".repeat(101))),
            "handler",
            "100 characters"),
        Arguments.of("bad id", change(b -> b.id("42")), "id", "UUID"),
        Arguments.of("due before 1970", change(b -> b.dueAt(-1L)), "dueAt", "1970"),
        Arguments.of(
            "due more than 10 years ahead",
            change(b -> b.dueAt(NOW + Duration.ofDays(3660).toMillis())),
            "dueAt",
            "10 years"),
        Arguments.of("zero attempts", change(b -> b.maxAttempts(0)), "maxAttempts", "1 to 1000"),
        Arguments.of(
            "too many attempts", change(b -> b.maxAttempts(1001)), "maxAttempts", "1 to 1000"),
        Arguments.of(
            "timeout below 1 s", change(b -> b.timeoutMs(999L)), "timeoutMs", "1 s to 24 h"),
        Arguments.of(
            "timeout above 24 h",
            change(b -> b.timeoutMs(Duration.ofHours(24).toMillis() + 1)),
            "timeoutMs",
            "1 s to 24 h"),
        Arguments.of(
            "more than 100 dependencies",
            change(b -> b.dependsOn(tooMany)),
            "dependsOn",
            "limit is 100"),
        Arguments.of(
            "depends on itself", change(b -> b.dependsOn(List.of(ID))), "dependsOn", "itself"),
        Arguments.of(
            "dependency not an id", change(b -> b.dependsOn(List.of("x"))), "dependsOn", "UUID"),
        Arguments.of("empty key", change(b -> b.key("")), "key", "1 to 255"),
        Arguments.of("key too long", change(b -> b.key("k".repeat(256))), "key", "1 to 255"),
        Arguments.of(
            "ordering key with a control character",
            change(b -> b.orderingKey("order\n42")),
            "orderingKey",
            "control character"),
        Arguments.of(
            "ordering key too long",
            change(b -> b.orderingKey("o".repeat(256))),
            "orderingKey",
            "1 to 255"),
        Arguments.of(
            "concurrency key empty",
            change(b -> b.options(TaskOptions.builder().concurrencyKey("").build())),
            "concurrencyKey",
            "1 to 255"),
        Arguments.of(
            "ordering and concurrency key together",
            change(
                b ->
                    b.orderingKey("order-42")
                        .options(TaskOptions.builder().concurrencyKey("tenant-7").build())),
            "concurrencyKey",
            "cannot be set with orderingKey"),
        Arguments.of(
            "too many headers", change(b -> b.headers(manyHeaders)), "headers", "limit is 32"),
        Arguments.of(
            "header name over 128 characters",
            change(b -> b.headers(java.util.Map.of("h".repeat(100_000), "v"))),
            "headers",
            "1 to 128 characters"),
        Arguments.of(
            "header value over 1024 characters",
            change(b -> b.headers(java.util.Map.of("traceparent", "v".repeat(1025)))),
            "headers",
            "at most 1024 characters"),
        Arguments.of("unknown version", change(b -> b.v(7)), "v=7", "v=1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void refusesBadInputNamingFieldAndLimit(
      String label, UnaryOperator<TaskEnvelope.Builder> change, String field, String limit) {
    TaskEnvelope bad = with(change);
    assertThatThrownBy(() -> validator.validate(bad, 10, NOW))
        .as(label)
        .isInstanceOf(TasklaneException.class)
        .hasMessageContaining(field)
        .hasMessageContaining(limit);
  }

  @Test
  void refusesOversizePayloadNamingTheLimit() {
    assertThatThrownBy(() -> validator.validate(good(), 256 * 1024 + 1, NOW))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("payload:")
        .hasMessageContaining("262144");
    var big = new TaskValidator(new TaskLimits(TaskLimits.HARD_MAX_PAYLOAD_BYTES));
    assertThat(big.validate(good(), 1024 * 1024, NOW)).isEqualTo(good());
  }

  @Test
  void payloadLimitIsCappedAtOneMebibyte() {
    assertThatThrownBy(() -> new TaskLimits(2 * 1024 * 1024))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("maxPayloadBytes")
        .hasMessageContaining("1048576");
  }

  @Test
  void acceptsAGoodTaskAndBoundaryValues() {
    assertThat(validator.validate(good(), 256 * 1024, NOW)).isEqualTo(good());
    assertThat(validator.validate(with(b -> b.maxAttempts(1000)), 1, NOW).maxAttempts())
        .isEqualTo(1000);
    assertThat(validator.validate(with(b -> b.timeoutMs(1000L)), 1, NOW).timeoutMs())
        .isEqualTo(1000);
    assertThat(validator.validate(with(b -> b.dueAt(0L)), 1, NOW).dueAt()).isZero();
    assertThat(
            validator.validate(
                with(
                    b ->
                        b.dependsOn(
                            Collections.nCopies(1, "0190f3a2-7b1c-7e4a-9d2b-000000000001"))),
                1,
                NOW))
        .isNotNull();
  }

  @Test
  void aWaitTimeoutMustBeFromOneSecondToSevenDays() {
    for (long bad : List.of(0L, 999L, 604_800_001L, -5L, Long.MAX_VALUE)) {
      TaskOptions options = TaskOptions.builder().waitTimeoutMs(bad).build();
      assertThatThrownBy(() -> validator.validate(with(b -> b.options(options)), 1, NOW))
          .as("" + bad)
          .isInstanceOf(InvalidTaskException.class)
          .hasMessage("waitTimeout: " + bad + " ms is outside 1 s to 7 d (1000 to 604800000 ms)");
    }
    TaskEnvelope ok =
        validator.validate(
            with(b -> b.options(TaskOptions.builder().waitTimeoutMs(2000L).build())), 1, NOW);
    assertThat(ok.options().waitTimeoutMs()).isEqualTo(2000);
    assertThat(good().options().waitTimeoutMsOrNone()).isEqualTo(-1);
  }

  @Test
  void aWaitTimeoutHeaderIsJustAHeader() {
    TaskEnvelope t =
        validator.validate(with(b -> b.headers(Map.of("tasklane-wait-timeout-ms", "2s"))), 1, NOW);
    assertThat(t.options().isEmpty()).isTrue();
  }

  @Test
  void aHugeHeaderNameIsRefusedWithoutEchoingIt() {
    TaskEnvelope bad = with(b -> b.headers(java.util.Map.of("h".repeat(100_000), "v")));
    assertThatThrownBy(() -> validator.validate(bad, 10, NOW))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("100000 characters")
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(300));
  }

  @Test
  void moreHeadersThanTheLimitAreRefusedNamingTheFieldTheCountAndTheLimit() {
    Map<String, String> many = new HashMap<>();
    for (int i = 0; i < 10_000; i++) {
      many.put("h" + i, "v");
    }
    assertThatThrownBy(() -> validator.validate(with(b -> b.headers(many)), 10, NOW))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessage("headers: has 10000 entries; the limit is " + TaskLimits.MAX_HEADERS);
    Map<String, String> atLimit = new HashMap<>();
    for (int i = 0; i < TaskLimits.MAX_HEADERS; i++) {
      atLimit.put("h" + i, "v");
    }
    assertThat(validator.validate(with(b -> b.headers(atLimit)), 10, NOW).headers())
        .hasSize(TaskLimits.MAX_HEADERS);
  }
}
