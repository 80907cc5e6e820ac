package io.tasklane.worker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tasklane.core.Dispatch;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.Wire;
import io.tasklane.core.WireFormatException;
import org.junit.jupiter.api.Test;

/** The hold of a dispatch sent ahead, on the worker's clock and against clock skew. */
class DispatchHoldTest {
  private static final long T = 1_800_000_000_000L;

  private static Dispatch sentAt(long dispatchedAt, Long notBefore) {
    TaskEnvelope task =
        TaskEnvelope.builder().id("t").handler("h").dueAt(dispatchedAt).createdAt(T).build();
    return new Dispatch(Wire.VERSION, task, 1, T + 600_000, "t", dispatchedAt, notBefore);
  }

  @Test
  void aDispatchWithoutNotBeforeStartsAtOnce() {
    assertThat(DispatchHold.remaining(sentAt(T, null), T, T)).isZero();
  }

  @Test
  void heldUntilNotBeforeByTheWorkersClock() {
    assertThat(DispatchHold.remaining(sentAt(T, T + 1_500), T + 10, T + 10)).isEqualTo(1_490);
    assertThat(DispatchHold.remaining(sentAt(T, T + 1_500), T + 1_500, T + 10))
        .isLessThanOrEqualTo(0);
  }

  @Test
  void aWorkerClockBehindTheSchedulersDoesNotDelayTheFire() {
    long behind = -60_000; // worker clock a minute behind: holds 1.5 s from receipt, not 61.5 s
    long received = T + behind;
    assertThat(DispatchHold.remaining(sentAt(T, T + 1_500), received, received)).isEqualTo(1_500);
  }

  @Test
  void aNotBeforeTooFarAheadIsRefusedNamingTheFieldAndTheLimit() {
    assertThatThrownBy(() -> DispatchHold.remaining(sentAt(T, T + 600_000), T, T))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("notBefore")
        .hasMessageContaining("120000 ms a worker holds");
  }
}
