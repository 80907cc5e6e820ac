package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DispatchSlotTest {
  private static final TaskEnvelope TASK =
      TaskEnvelope.builder()
          .id(TaskIds.keyless(java.time.Clock.systemUTC()))
          .handler("partner.call")
          .build();

  private static Dispatch dispatch(Long notBefore, Boolean rateSlot) {
    return new Dispatch(
        Wire.VERSION, TASK, 1, 60_000, TASK.routingKey(), 1_000, notBefore, "n", rateSlot);
  }

  @Test
  void anAttemptWithARateSlotIsMissedOnlyMoreThanASecondAfterIt() {
    Dispatch d = dispatch(10_000L, true);
    assertThat(d.slotMissedBy(9_000)).isZero();
    assertThat(d.slotMissedBy(11_000)).isZero();
    assertThat(d.slotMissedBy(11_001)).isEqualTo(1_001);
    assertThat(d.slotMissedBy(40_000)).isEqualTo(30_000);
  }

  @Test
  void anAttemptWithoutARateSlotIsNeverMissed() {
    assertThat(dispatch(10_000L, null).slotMissedBy(40_000)).isZero();
    assertThat(dispatch(10_000L, false).slotMissedBy(40_000)).isZero();
    assertThat(dispatch(null, true).slotMissedBy(40_000)).isZero();
  }

  @Test
  void theFlagTravelsOnTheWireAndAnOlderDispatchReadsWithoutIt() {
    Dispatch d = dispatch(10_000L, true);
    assertThat(WireCodec.decodeDispatch(WireCodec.encode(d)).rateSlot()).isTrue();
    Dispatch plain = dispatch(10_000L, null);
    assertThat(new String(WireCodec.encode(plain), java.nio.charset.StandardCharsets.UTF_8))
        .doesNotContain("rateSlot");
    assertThat(WireCodec.decodeDispatch(WireCodec.encode(plain)).rateSlot()).isNull();
  }
}
