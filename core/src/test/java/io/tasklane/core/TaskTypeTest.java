package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TaskTypeTest {
  record OrderRef(long orderId) {}

  static final TaskType<OrderRef> ORDER_CANCEL = TaskType.of("order.cancel", OrderRef.class);

  @Test
  void aTypeHasANameAPayloadClassAndNoDefaultsOfItsOwn() {
    assertThat(ORDER_CANCEL.name()).isEqualTo("order.cancel");
    assertThat(ORDER_CANCEL.payloadType()).isEqualTo(OrderRef.class);
    assertThat(ORDER_CANCEL.maxAttempts()).isNull();
    assertThat(ORDER_CANCEL.backoff()).isNull();
    assertThat(ORDER_CANCEL.timeout()).isNull();
  }

  @Test
  void defaultsAreSetOneByOneOnNewValues() {
    TaskType<OrderRef> t =
        ORDER_CANCEL
            .maxAttempts(5)
            .backoff(RetryPolicy.fixed(Duration.ofMinutes(1)))
            .timeout(Duration.ofSeconds(30));
    assertThat(t.maxAttempts()).isEqualTo(5);
    assertThat(t.backoff()).isEqualTo(RetryPolicy.fixed(Duration.ofMinutes(1)));
    assertThat(t.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(t.name()).isEqualTo("order.cancel");
    assertThat(ORDER_CANCEL.maxAttempts()).isNull();
    assertThat(t)
        .isEqualTo(
            ORDER_CANCEL
                .timeout(Duration.ofSeconds(30))
                .maxAttempts(5)
                .backoff(RetryPolicy.fixed(Duration.ofMinutes(1))));
    assertThat(t).isNotEqualTo(ORDER_CANCEL);
  }

  @Test
  void aTypeDerivesItsTasksLaneKeyFromThePayload() {
    TaskType<OrderRef> ordered = ORDER_CANCEL.orderingKey(o -> "order-" + o.orderId());
    assertThat(ordered.orderingKeyOf(new OrderRef(42))).isEqualTo("order-42");
    assertThat(ordered.concurrencyKeyOf(new OrderRef(42))).isNull();
    assertThat(ORDER_CANCEL.orderingKeyOf(new OrderRef(42))).isNull();
    TaskType<OrderRef> keyed = ORDER_CANCEL.concurrencyKey(o -> "shop-" + o.orderId() % 10);
    assertThat(keyed.concurrencyKeyOf(new OrderRef(42))).isEqualTo("shop-2");
    assertThatThrownBy(() -> ordered.concurrencyKey(o -> "x"))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("concurrencyKey");
  }

  @Test
  void aBadNameOrDefaultIsRefusedNamingTheField() {
    assertThatThrownBy(() -> TaskType.of("Order Cancel", OrderRef.class))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("handler:")
        .hasMessageContaining("[a-z0-9]");
    assertThatThrownBy(() -> TaskType.of(null, OrderRef.class))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("missing");
    assertThatThrownBy(() -> TaskType.of("order.cancel", null))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("payloadType:");
    assertThatThrownBy(() -> ORDER_CANCEL.maxAttempts(0))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("maxAttempts:")
        .hasMessageContaining("1 to 1000");
    assertThatThrownBy(() -> ORDER_CANCEL.timeout(Duration.ofMillis(999)))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("timeout:")
        .hasMessageContaining("1 s to 24 h");
    assertThatThrownBy(() -> ORDER_CANCEL.timeout(Duration.ofHours(25)))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("timeout:");
  }

  @Test
  void aKeyNamesATaskOfTheType() {
    assertThat(ORDER_CANCEL.key("order-42")).isEqualTo(TaskKey.of("order.cancel", "order-42"));
  }
}
