package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.TaskOptions;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskRequestTest {
  static final Instant AT = Instant.parse("2026-03-01T10:00:00Z");

  @Test
  void aNewRequestLeavesEverythingToTheOutboxDefaults() {
    TaskRequest r = TaskRequest.to("order.cancel");
    assertThat(r.handler()).isEqualTo("order.cancel");
    assertThat(r.payload()).isNull();
    assertThat(r.delay()).isNull();
    assertThat(r.dueAt()).isNull();
    assertThat(r.key()).isNull();
    assertThat(r.orderingKey()).isNull();
    assertThat(r.maxAttempts()).isNull();
    assertThat(r.timeout()).isNull();
    assertThat(r.backoff()).isNull();
    assertThat(r.dependsOn()).isEmpty();
    assertThat(r.headers()).isEmpty();
    assertThat(r.options()).isEqualTo(TaskOptions.none());
  }

  @Test
  void eachMethodSetsItsFieldAndKeepsTheOthers() {
    RetryPolicy backoff = RetryPolicy.fixed(Duration.ofMinutes(1));
    TaskRequest r =
        TaskRequest.to("order.cancel")
            .payload(42)
            .delay(Duration.ofMinutes(30))
            .key("order-42")
            .orderingKey("customer-7")
            .maxAttempts(5)
            .timeout(Duration.ofSeconds(30))
            .backoff(backoff)
            .dependsOn("0190f3a2-7b1c-7e4a-9d2b-000000000001")
            .header("a", "1")
            .header("b", "2")
            .waitTimeout(Duration.ofMinutes(2));
    assertThat(r.handler()).isEqualTo("order.cancel");
    assertThat(r.payload()).isEqualTo(42);
    assertThat(r.delay()).isEqualTo(Duration.ofMinutes(30));
    assertThat(r.dueAt()).isNull();
    assertThat(r.key()).isEqualTo("order-42");
    assertThat(r.orderingKey()).isEqualTo("customer-7");
    assertThat(r.maxAttempts()).isEqualTo(5);
    assertThat(r.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(r.backoff()).isEqualTo(backoff);
    assertThat(r.dependsOn()).containsExactly("0190f3a2-7b1c-7e4a-9d2b-000000000001");
    assertThat(r.headers()).containsEntry("a", "1").containsEntry("b", "2").hasSize(2);
    assertThat(r.options().waitTimeoutMs()).isEqualTo(120_000L);
  }

  @Test
  void aPriorityComesFromTheRequestOrItsTypeAndIsChecked() {
    io.tasklane.core.TaskType<Long> urgent =
        io.tasklane.core.TaskType.of("page.oncall", Long.class).priority(9);
    assertThat(TaskRequest.of(urgent, 1L).options().priority()).isEqualTo(9);
    assertThat(TaskRequest.of(urgent, 1L).priority(2).options().priority()).isEqualTo(2);
    assertThat(TaskRequest.to("report.render").priority(5).options().isEmpty()).isTrue();
    TaskRequest both = TaskRequest.to("report.render").concurrencyKey("t-7").priority(1);
    assertThat(both.options().concurrencyKey()).isEqualTo("t-7");
    assertThat(both.options().priority()).isEqualTo(1);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> TaskRequest.to("report.render").priority(10))
        .isInstanceOf(io.tasklane.core.InvalidTaskException.class)
        .hasMessage("priority: must be 0 to 9 (is 10)");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> io.tasklane.core.TaskType.of("x.y", Long.class).priority(-1))
        .isInstanceOf(io.tasklane.core.InvalidTaskException.class)
        .hasMessage("priority: must be 0 to 9 (is -1)");
  }

  @Test
  void aTaskTypesKeysComeFromThePayloadAndAConcurrencyKeyIsAnOption() {
    io.tasklane.core.TaskType<Long> type =
        io.tasklane.core.TaskType.of("order.sync", Long.class).orderingKey(id -> "order-" + id);
    assertThat(TaskRequest.of(type, 42L).orderingKey()).isEqualTo("order-42");

    TaskRequest keyed =
        TaskRequest.to("report.render").waitTimeout(Duration.ofMinutes(1)).concurrencyKey("t-7");
    assertThat(keyed.options().concurrencyKey()).isEqualTo("t-7");
    assertThat(keyed.options().waitTimeoutMs()).isEqualTo(60_000L);
    assertThat(keyed.orderingKey()).isNull();
  }

  @Test
  void theWaitTimeoutIsAnOptionCheckedWhenSet() {
    TaskRequest r = TaskRequest.to("a").waitTimeout(Duration.ofSeconds(5));
    assertThat(r.headers()).isEmpty();
    assertThat(r.options()).isEqualTo(TaskOptions.builder().waitTimeoutMs(5_000L).build());
    assertThat(r.options(null).options()).isEqualTo(TaskOptions.none());
    for (Duration bad :
        new Duration[] {Duration.ofMillis(999), Duration.ofDays(8), Duration.ofSeconds(-1)}) {
      assertThatThrownBy(() -> TaskRequest.to("a").waitTimeout(bad))
          .isInstanceOf(InvalidTaskException.class)
          .hasMessageStartingWith("waitTimeout: ")
          .hasMessageContaining("outside 1 s to 7 d");
    }
    assertThatThrownBy(() -> TaskRequest.to("a").waitTimeout(Duration.ofSeconds(Long.MAX_VALUE)))
        .hasMessageStartingWith("waitTimeout: " + Long.MAX_VALUE + " ms");
  }

  @Test
  void delayAndAtClearEachOther() {
    TaskRequest r = TaskRequest.to("a").delay(Duration.ofMinutes(1));
    assertThat(r.at(AT).delay()).isNull();
    assertThat(r.at(AT).dueAt()).isEqualTo(AT);
    assertThat(r.at(AT).delay(Duration.ofSeconds(5)).dueAt()).isNull();
  }

  @Test
  void requestsAreImmutableValues() {
    TaskRequest base = TaskRequest.to("a").key("k");
    TaskRequest changed = base.maxAttempts(3);
    assertThat(base.maxAttempts()).isNull();
    assertThat(changed).isNotEqualTo(base);
    assertThat(TaskRequest.to("a").key("k")).isEqualTo(base).hasSameHashCodeAs(base);
    var deps = new ArrayList<>(List.of("x"));
    TaskRequest withDeps = base.dependsOn(deps);
    deps.add("y");
    assertThat(withDeps.dependsOn()).containsExactly("x");
    assertThatThrownBy(() -> withDeps.dependsOn().add("z"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(base.toString()).startsWith("TaskRequest[handler=a, ").contains("key=k");
  }

  @Test
  void aNullDependencyIsKeptForValidationToName() {
    assertThat(TaskRequest.to("a").dependsOn(Arrays.asList("x", null)).dependsOn())
        .containsExactly("x", null);
  }

  @Test
  void headersAreChecked() {
    assertThatThrownBy(() -> TaskRequest.to("a").header(null, "v"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("header name");
  }

  @Test
  void thereIsNoPublicPositionalConstructor() {
    assertThat(TaskRequest.class.getConstructors()).isEmpty();
    assertThat(Modifier.isFinal(TaskRequest.class.getModifiers())).isTrue();
  }
}
