package io.tasklane.relay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When the slot guard warns: keep size nearly used, unreserved, lost; never when unlimited. */
class SlotGuardTest {
  private static final long MB = 1024 * 1024;
  private final SlotGuard guard =
      new SlotGuard(null, new RelayMetrics(Clock.systemUTC(), true), 80);

  private static ReplicationSlot.State slot(String walStatus, long retained, long keep) {
    long safe = keep < 0 ? -1 : keep - retained;
    return new ReplicationSlot.State(true, true, walStatus, retained, safe, keep, Instant.EPOCH);
  }

  @Test
  void warnsFromTheConfiguredShareOfMaxSlotWalKeepSize() {
    assertThat(guard.warning(slot("reserved", 79 * MB, 100 * MB))).isNull();
    assertThat(guard.warning(slot("extended", 80 * MB, 100 * MB)))
        .contains("80 % of max_slot_wal_keep_size", "warning at 80 %", "20971520 bytes more");
    assertThat(slot("reserved", 50 * MB, 100 * MB).usedRatio()).isEqualTo(0.5);
  }

  @Test
  void anUnlimitedKeepSizeReportsButNeverWarns() {
    ReplicationSlot.State s = slot("reserved", 10_000 * MB, -1);
    assertThat(s.usedRatio()).isEqualTo(-1);
    assertThat(guard.warning(s)).isNull();
  }

  @Test
  void warnsAtOnceWhenTheServerMarksTheSlotUnreservedOrLost() {
    assertThat(guard.warning(slot("unreserved", 10 * MB, 100 * MB)))
        .contains("beyond max_slot_wal_keep_size");
    ReplicationSlot.State lost = slot("lost", -1, 100 * MB);
    assertThat(lost.lost()).isTrue();
    assertThat(guard.warning(lost)).contains("invalidated");
  }

  @Test
  void aMissingSlotIsNoWarning() {
    var missing = new ReplicationSlot.State(false, false, null, -1, -1, 100 * MB, Instant.EPOCH);
    assertThat(missing.lost()).isFalse();
    assertThat(guard.warning(missing)).isNull();
  }

  @Test
  void onlyAPostgresRelayExportsTheSlotMeters() {
    assertThat(new RelayMetrics(Clock.systemUTC(), true).scrape())
        .contains(
            "tasklane_relay_slot_retained_wal_bytes",
            "tasklane_relay_slot_wal_keep_size_used_ratio",
            "tasklane_relay_slot_recoveries_total");
    assertThat(new RelayMetrics(Clock.systemUTC()).scrape()).doesNotContain("tasklane_relay_slot_");
  }
}
