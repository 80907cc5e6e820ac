package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DispatchSlotTest {
  private static final TaskEnvelope TASK =
      TaskEnvelope.builder()
          .id(TaskIds.keyless(java.time.Clock.systemUTC()))
          .handler("partner.call")
          .build();

  private static Dispatch dispatch(Long notBefore, Long tolerance) {
    return new Dispatch(
        Wire.VERSION, TASK, 1, 60_000, TASK.routingKey(), 1_000, notBefore, "n", tolerance);
  }

  @Test
  void anAttemptWithARateSlotIsMissedOnlyMoreThanItsToleranceAfterIt() {
    Dispatch d = dispatch(10_000L, 119L);
    assertThat(d.slotMissedBy(9_000)).isZero();
    assertThat(d.slotMissedBy(10_119)).isZero();
    assertThat(d.slotMissedBy(10_120)).isEqualTo(120);
    assertThat(d.slotMissedBy(40_000)).isEqualTo(30_000);
  }

  @Test
  void anAttemptWithoutARateSlotIsNeverMissed() {
    assertThat(dispatch(10_000L, null).slotMissedBy(40_000)).isZero();
    assertThat(dispatch(null, 119L).slotMissedBy(40_000)).isZero();
  }

  @Test
  void theFlagTravelsOnTheWireAndAnOlderDispatchReadsWithoutIt() {
    Dispatch d = dispatch(10_000L, 119L);
    assertThat(WireCodec.decodeDispatch(WireCodec.encode(d)).slotTolerance()).isEqualTo(119L);
    Dispatch plain = dispatch(10_000L, null);
    assertThat(new String(WireCodec.encode(plain), java.nio.charset.StandardCharsets.UTF_8))
        .doesNotContain("slotTolerance");
    assertThat(WireCodec.decodeDispatch(WireCodec.encode(plain)).slotTolerance()).isNull();
  }
}
