package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
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
    return new TaskEnvelope(
        1,
        ID,
        "email.send",
        null,
        null,
        WireCodec.readTree("{\"to\":\"a@b\"}"),
        NOW,
        5,
        30_000,
        null,
        List.of(),
        null,
        NOW,
        null,
        null);
  }

  static TaskEnvelope with(UnaryOperator<Object[]> change) {
    TaskEnvelope t = good();
    Object[] f = {
      t.v(),
      t.id(),
      t.handler(),
      t.key(),
      t.orderingKey(),
      t.dueAt(),
      t.maxAttempts(),
      t.timeoutMs(),
      t.dependsOn(),
      t.headers()
    };
    f = change.apply(f);
    @SuppressWarnings("unchecked")
    var deps = (List<String>) f[8];
    @SuppressWarnings("unchecked")
    var headers = (java.util.Map<String, String>) f[9];
    return new TaskEnvelope(
        (int) f[0],
        (String) f[1],
        (String) f[2],
        (String) f[3],
        (String) f[4],
        t.payload(),
        (long) f[5],
        (int) f[6],
        (long) f[7],
        null,
        deps,
        headers,
        NOW,
        null,
        null);
  }

  static UnaryOperator<Object[]> set(int index, Object value) {
    return f -> {
      f[index] = value;
      return f;
    };
  }

  static Stream<Arguments> badInputs() {
    List<String> tooMany =
        IntStream.range(0, 101)
            .mapToObj(i -> String.format("0190f3a2-7b1c-7e4a-9d2b-%012d", i))
            .toList();
    var manyHeaders = new HashMap<String, String>();
    IntStream.range(0, 33).forEach(i -> manyHeaders.put("h" + i, "x"));
    return Stream.of(
        Arguments.of("invalid handler name", set(2, "Order Cancel"), "handler", "[a-z0-9]"),
        Arguments.of("missing handler", set(2, null), "handler", "missing"),
        Arguments.of("handler too long", set(2, "a".repeat(101)), "handler", "100 characters"),
        Arguments.of("bad id", set(1, "42"), "id", "UUID"),
        Arguments.of("due before 1970", set(5, -1L), "dueAt", "1970"),
        Arguments.of(
            "due more than 10 years ahead",
            set(5, NOW + Duration.ofDays(3660).toMillis()),
            "dueAt",
            "10 years"),
        Arguments.of("zero attempts", set(6, 0), "maxAttempts", "1 to 1000"),
        Arguments.of("too many attempts", set(6, 1001), "maxAttempts", "1 to 1000"),
        Arguments.of("timeout below 1 s", set(7, 999L), "timeoutMs", "1 s to 24 h"),
        Arguments.of(
            "timeout above 24 h",
            set(7, Duration.ofHours(24).toMillis() + 1),
            "timeoutMs",
            "1 s to 24 h"),
        Arguments.of("more than 100 dependencies", set(8, tooMany), "dependsOn", "limit is 100"),
        Arguments.of("depends on itself", set(8, List.of(ID)), "dependsOn", "itself"),
        Arguments.of("dependency not an id", set(8, List.of("x")), "dependsOn", "UUID"),
        Arguments.of("empty key", set(3, ""), "key", "1 to 255"),
        Arguments.of("key too long", set(3, "k".repeat(256)), "key", "1 to 255"),
        Arguments.of("too many headers", set(9, manyHeaders), "headers", "limit is 32"),
        Arguments.of(
            "header name over 128 characters",
            set(9, java.util.Map.of("h".repeat(100_000), "v")),
            "headers",
            "1 to 128 characters"),
        Arguments.of(
            "header value over 1024 characters",
            set(9, java.util.Map.of("traceparent", "v".repeat(1025))),
            "headers",
            "at most 1024 characters"),
        Arguments.of("unknown version", set(0, 7), "v=7", "v=1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void refusesBadInputNamingFieldAndLimit(
      String label, UnaryOperator<Object[]> change, String field, String limit) {
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
    assertThat(validator.validate(with(set(6, 1000)), 1, NOW).maxAttempts()).isEqualTo(1000);
    assertThat(validator.validate(with(set(7, 1000L)), 1, NOW).timeoutMs()).isEqualTo(1000);
    assertThat(validator.validate(with(set(5, 0L)), 1, NOW).dueAt()).isZero();
    assertThat(
            validator.validate(
                with(set(8, Collections.nCopies(1, "0190f3a2-7b1c-7e4a-9d2b-000000000001"))),
                1,
                NOW))
        .isNotNull();
  }

  @Test
  void aHugeHeaderNameIsRefusedWithoutEchoingIt() {
    TaskEnvelope bad = with(set(9, java.util.Map.of("h".repeat(100_000), "v")));
    assertThatThrownBy(() -> validator.validate(bad, 10, NOW))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("100000 characters")
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(300));
  }
}
