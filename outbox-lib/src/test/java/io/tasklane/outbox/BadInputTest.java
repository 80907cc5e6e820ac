package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskKey;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each bad input is refused at enqueue with the field and the limit, and nothing is written. */
@TasklaneStack
class BadInputTest {
  static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  /** Jackson cannot encode an object whose getter throws. */
  static final class Unencodable {
    public String getValue() {
      throw new IllegalStateException("boom");
    }
  }

  final TestDb db;

  BadInputTest(LocalStack stack) {
    db = TestDb.create(stack, "outbox_bad");
  }

  static Stream<Arguments> badRequests() {
    TaskRequest ok = TaskRequest.to("order.cancel");
    List<String> deps =
        IntStream.range(0, 101).mapToObj(i -> TaskIds.forKey("dep", "d" + i)).toList();
    return Stream.of(
        bad("oversize payload", ok.payload("x".repeat(256 * 1024)), "payload", "262144"),
        bad("invalid handler", TaskRequest.to("Order Cancel!"), "handler", "[a-z0-9]"),
        bad("missing handler", TaskRequest.to(null), "handler", "is missing"),
        bad("due before 1970", ok.at(Instant.parse("1969-12-31T23:59:59Z")), "dueAt", "1970"),
        bad("due over 10 years", ok.delay(Duration.ofDays(3660)), "dueAt", "10 years"),
        bad("zero attempts", ok.maxAttempts(0), "maxAttempts", "1 to 1000"),
        bad("1001 attempts", ok.maxAttempts(1001), "maxAttempts", "1 to 1000"),
        bad("timeout under 1 s", ok.timeout(Duration.ofMillis(999)), "timeoutMs", "1 s to 24 h"),
        bad("timeout over 24 h", ok.timeout(Duration.ofHours(25)), "timeoutMs", "1 s to 24 h"),
        bad("101 dependencies", ok.dependsOn(deps), "dependsOn", "100"),
        bad("dependency not an id", ok.dependsOn("nope"), "dependsOn", "UUID"),
        bad("unencodable payload", ok.payload(new Unencodable()), "payload", "cannot be encoded"),
        bad("empty key", ok.key(""), "key", "empty"),
        bad("key too long", ok.key("k".repeat(256)), "key", "255"),
        bad("unique without key", ok.unique(Duration.ofHours(1)), "unique", "key"),
        bad(
            "unique key too long",
            ok.key("k".repeat(256)).unique(Duration.ofHours(1)),
            "key",
            "255"));
  }

  static Arguments bad(String name, TaskRequest request, String field, String limit) {
    return Arguments.of(name, request, field, limit);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRequests")
  void badRequestIsRefusedAtEnqueueAndNothingIsWritten(
      String name, TaskRequest request, String field, String limit) throws Exception {
    try (Connection c = db.begin()) {
      JdbcTaskOutbox outbox = TaskOutbox.builder().clock(CLOCK).jdbc(c);
      assertThatThrownBy(() -> outbox.enqueue(request))
          .isInstanceOfSatisfying(
              InvalidTaskException.class,
              e -> {
                assertThat(e.field()).isEqualTo(field);
                assertThat(e.getMessage()).startsWith(field + ":").contains(limit);
              });
      c.commit();
    }
    assertThat(db.count()).isZero();
    assertThat(db.query("SELECT * FROM tasklane_unique")).isEmpty();
  }

  @Test
  void aUniqueWindowOutside1SecondTo366DaysIsRefusedNamingTheField() throws Exception {
    TaskRequest keyed = TaskRequest.to("order.remind").key("order-42");
    for (Duration bad :
        List.of(
            Duration.ZERO,
            Duration.ofMillis(999),
            Duration.ofSeconds(-5),
            Duration.ofDays(366).plusMillis(1),
            Duration.ofSeconds(Long.MAX_VALUE))) {
      assertThatThrownBy(() -> keyed.unique(bad))
          .as(bad.toString())
          .isInstanceOfSatisfying(
              InvalidTaskException.class,
              e -> {
                assertThat(e.field()).isEqualTo("unique");
                assertThat(e.getMessage()).startsWith("unique: ").contains("1 s to 366 d");
              });
    }
    assertThat(keyed.unique(Duration.ofSeconds(1)).unique()).isEqualTo(Duration.ofSeconds(1));
    assertThat(keyed.unique(Duration.ofDays(366)).unique(null).unique()).isNull();
    try (Connection c = db.begin()) {
      assertThatThrownBy(
              () ->
                  JdbcTaskOutbox.of(c)
                      .enqueueAll(
                          List.of(
                              keyed.unique(Duration.ofMinutes(5)),
                              TaskRequest.to("order.remind").unique(Duration.ofMinutes(5)))))
          .isInstanceOfSatisfying(
              InvalidTaskException.class,
              e -> assertThat(e.getMessage()).startsWith("unique: ").contains("(request 1 of 2)"));
      c.commit();
    }
    assertThat(db.count()).isZero();
    assertThat(db.query("SELECT * FROM tasklane_unique")).as("nothing claimed").isEmpty();
  }

  @Test
  void payloadLimitIsConfigurableUpToOneMebibyte() throws Exception {
    Function<Connection, JdbcTaskOutbox> roomy =
        c -> TaskOutbox.builder().config(OutboxConfig.DEFAULT.withMaxPayloadBytes(1 << 20)).jdbc(c);
    try (Connection c = db.begin()) {
      roomy.apply(c).enqueue(TaskRequest.to("big.one").payload("x".repeat(512 * 1024)));
      assertThatThrownBy(
              () ->
                  roomy
                      .apply(c)
                      .enqueue(TaskRequest.to("big.one").payload("x".repeat(1024 * 1024))))
          .isInstanceOf(InvalidTaskException.class)
          .hasMessageContaining("1048576");
      c.rollback();
    }
    assertThatThrownBy(() -> OutboxConfig.DEFAULT.withMaxPayloadBytes((1 << 20) + 1))
        .isInstanceOf(OutboxException.class)
        .hasMessageContaining("tasklane.outbox.max-payload-bytes")
        .hasMessageContaining("1048576");
  }

  @Test
  void badCancelArgumentsAreRefused() throws Exception {
    try (Connection c = db.begin()) {
      JdbcTaskOutbox outbox = JdbcTaskOutbox.of(c);
      assertThatThrownBy(() -> outbox.cancel("not-a-uuid"))
          .isInstanceOfSatisfying(
              InvalidTaskException.class, e -> assertThat(e.field()).isEqualTo("taskId"));
      assertThatThrownBy(() -> outbox.cancel(TaskKey.of("Bad Handler", "k")))
          .isInstanceOfSatisfying(
              InvalidTaskException.class, e -> assertThat(e.field()).isEqualTo("handler"));
      String id = TaskIds.keyless(CLOCK);
      assertThatThrownBy(() -> outbox.cancel(id, TaskOutbox.CancelReason.of("r".repeat(1001))))
          .isInstanceOfSatisfying(
              InvalidTaskException.class, e -> assertThat(e.field()).isEqualTo("reason"));
      c.commit();
    }
    assertThat(db.count()).isZero();
  }

  @Test
  void badConfigNamesTheKeyAndTheLimit() {
    assertThatThrownBy(() -> new OutboxConfig(1024, 0, Duration.ofMinutes(1), true))
        .hasMessageContaining("tasklane.outbox.default-max-attempts")
        .hasMessageContaining("1 to 1000");
    assertThatThrownBy(() -> new OutboxConfig(1024, 3, Duration.ofMillis(10), true))
        .hasMessageContaining("tasklane.outbox.default-timeout")
        .hasMessageContaining("1 s to 24 h");
  }
}
