package io.tasklane.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.core.DispatchPriority;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class PoolOrderTest {
  @Test
  void eachStepOfPriorityIsWorthANinthOfTheBound() {
    long t = 1_000_000;
    assertThat(PoolOrder.rank(t, 5)).isEqualTo(t);
    // priority 9 passes priority 0 received up to the bound before it, not longer
    assertThat(PoolOrder.rank(t + PoolOrder.AGING_MS - 2, 9)).isLessThan(PoolOrder.rank(t, 0));
    assertThat(PoolOrder.rank(t + PoolOrder.AGING_MS + 1, 9)).isGreaterThan(PoolOrder.rank(t, 0));
    // one priority keeps arrival order
    assertThat(PoolOrder.rank(t, 7)).isLessThan(PoolOrder.rank(t + 1, 7));
  }

  @Test
  void thePriorityTravelsAsOneDigitAndOnlyWhenNotTheDefault() {
    TaskEnvelope plain = TaskEnvelope.builder().id("a").handler("h").build();
    assertThat(DispatchPriority.headerValue(plain)).isNull();
    TaskEnvelope urgent =
        plain.toBuilder().options(TaskOptions.builder().priority(9).build()).build();
    RecordHeaders headers = new RecordHeaders();
    headers.add(ReservedHeaders.DISPATCH_PRIORITY, DispatchPriority.headerValue(urgent));
    assertThat(DispatchPriority.of(headers)).isEqualTo(9);
    assertThat(DispatchPriority.of(new RecordHeaders())).isEqualTo(TaskOptions.DEFAULT_PRIORITY);
    RecordHeaders bad = new RecordHeaders();
    bad.add(ReservedHeaders.DISPATCH_PRIORITY, "12".getBytes());
    assertThat(DispatchPriority.of(bad)).as("a hint, never a refusal").isEqualTo(5);
  }
}
