package io.tasklane.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.worker.Recurring;
import io.tasklane.worker.WorkerException;
import org.junit.jupiter.api.Test;

/** {@code @Recurring(orderingKey, concurrencyKey, priority)} reach the definition, checked. */
class RecurringLaneKeysTest {
  @Recurring(name = "orders.sync", every = "5m", orderingKey = "order-7")
  static final class Ordered {}

  @Recurring(name = "reports.tenant", cron = "0 2 * * *", concurrencyKey = " tenant 1")
  static final class Keyed {}

  @Recurring(name = "plain", every = "5m")
  static final class Plain {}

  @Recurring(name = "urgent", every = "5m", priority = 8)
  static final class Urgent {}

  @Recurring(name = "too.high", every = "5m", priority = 12)
  static final class TooHigh {}

  @Recurring(name = "fan.out", every = "5m", shards = 4, orderingKey = "k")
  static final class Broadcast {}

  private static ScheduleDefinition define(Class<?> type) {
    return RecurringDefinitions.define(
        new RecurringSpec("order.sync", type.getSimpleName(), type.getAnnotation(Recurring.class)),
        RecurringDefinitions.origin("app"));
  }

  @Test
  void theKeysReachTheDefinitionAsWritten() {
    assertThat(define(Ordered.class).orderingKey()).isEqualTo("order-7");
    assertThat(define(Ordered.class).concurrencyKey()).isNull();
    assertThat(define(Keyed.class).concurrencyKey()).isEqualTo(" tenant 1");
    assertThat(define(Plain.class).orderingKey()).isNull();
    assertThat(define(Plain.class).concurrencyKey()).isNull();
  }

  @Test
  void aPriorityReachesTheDefinitionAndABadOneFailsStartUp() {
    assertThat(define(Urgent.class).priority()).isEqualTo(8);
    assertThat(define(Plain.class).priority()).isNull();
    assertThatThrownBy(() -> define(TooHigh.class))
        .isInstanceOf(WorkerException.class)
        .hasMessageContaining("@Recurring(name = \"too.high\")")
        .hasMessageContaining("priority")
        .hasMessageContaining("0 to 9");
  }

  @Test
  void aKeyOnABroadcastFailsStartUpNamingTheScheduleAndTheField() {
    assertThatThrownBy(() -> define(Broadcast.class))
        .isInstanceOf(WorkerException.class)
        .hasMessageContaining("@Recurring(name = \"fan.out\")")
        .hasMessageContaining("orderingKey")
        .hasMessageContaining("needs routing ONE");
  }
}
