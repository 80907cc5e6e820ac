package io.tasklane.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.PayloadCodec;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.outbox.OutboxRows;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * A schedule request's {@code orderingKey} and {@code concurrencyKey} reach the definition written
 * in the SCHEDULE row, checked as the scheduler checks them (no database: the row factory alone).
 */
class ScheduleRequestLaneKeysTest {
  private final RowFactory rows =
      new RowFactory(
          OutboxConfig.DEFAULT,
          PayloadCodec.jackson(),
          Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC),
          new TraceHeaders(false));

  private static ScheduleRequest nightly() {
    return ScheduleRequest.named("orders.sync").handler("order.sync").cron("0 2 * * *");
  }

  private ScheduleDefinition written(ScheduleRequest r) {
    return OutboxRows.toSchedule(rows.schedule(r));
  }

  @Test
  void theKeysReachTheDefinition() {
    ScheduleDefinition ordered = written(nightly().orderingKey("order-7"));
    assertThat(ordered.orderingKey()).isEqualTo("order-7");
    assertThat(ordered.concurrencyKey()).isNull();

    ScheduleDefinition keyed = written(nightly().concurrencyKey("tenant-1"));
    assertThat(keyed.concurrencyKey()).isEqualTo("tenant-1");
    assertThat(keyed.orderingKey()).isNull();

    ScheduleDefinition unset = written(nightly().orderingKey("order-7").orderingKey(null));
    assertThat(unset.orderingKey()).isNull();
  }

  @Test
  void aKeyOfABroadcastOrBothKeysAreRefusedNamingTheField() {
    assertThatThrownBy(() -> rows.schedule(nightly().broadcast(3).orderingKey("k")))
        .isInstanceOf(InvalidTaskException.class)
        .extracting(e -> ((InvalidTaskException) e).field())
        .isEqualTo("orderingKey");
    assertThatThrownBy(() -> rows.schedule(nightly().orderingKey("k").concurrencyKey("k")))
        .isInstanceOf(InvalidTaskException.class)
        .extracting(e -> ((InvalidTaskException) e).field())
        .isEqualTo("concurrencyKey");
  }
}
