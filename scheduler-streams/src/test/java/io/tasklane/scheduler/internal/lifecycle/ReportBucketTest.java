package io.tasklane.scheduler.internal.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Report buckets: encoding, merging by histograms, and the bucket starts. */
class ReportBucketTest {
  @Test
  void mergedBucketsAddCountsAndHistogramsNotPercentiles() {
    ReportBucket fast = new ReportBucket();
    for (int i = 0; i < 99; i++) {
      fast.ran(10);
    }
    fast.succeeded = 99;
    ReportBucket slow = new ReportBucket();
    slow.ran(5_000);
    slow.dead = 1;
    slow.failed = 3;
    ReportBucket merged =
        ReportBucket.decode(fast.encode()).add(ReportBucket.decode(slow.encode()));
    Map<String, Object> p = merged.point(0);
    assertThat(p)
        .containsEntry("succeeded", 99L)
        .containsEntry("dead", 1L)
        .containsEntry("failed", 3L);
    @SuppressWarnings("unchecked")
    Map<String, Object> run = (Map<String, Object>) p.get("runTimeMs");
    assertThat(run.get("p50")).isEqualTo(10L);
    assertThat((Long) run.get("max")).isBetween(4_950L, 5_050L); // 2 significant digits: within 1%
    @SuppressWarnings("unchecked")
    Map<String, Object> late = (Map<String, Object>) p.get("latenessMs");
    assertThat(late.get("p50")).isNull();
  }

  @Test
  void bucketsStartAtTheMinuteHourAndDayInUtc() {
    long at = 1_800_000_123_456L; // 2027-01-15T08:02:03.456Z
    assertThat(ReportGrain.MINUTE.start(at)).isEqualTo(1_800_000_120_000L);
    assertThat(ReportGrain.HOUR.start(at)).isEqualTo(1_800_000_000_000L);
    assertThat(ReportGrain.DAY.start(at)).isEqualTo(1_799_971_200_000L);
  }
}
