package io.tasklane.scheduler.internal.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

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
    assertThat(merged.succeeded).isEqualTo(99);
    assertThat(merged.dead).isEqualTo(1);
    assertThat(merged.failed).isEqualTo(3);
    long[] run = merged.runTimeMs();
    assertThat(run[0]).as("p50").isEqualTo(10L);
    assertThat(run[2]).as("max").isBetween(4_950L, 5_050L); // 2 significant digits: within 1%
    assertThat(merged.latenessMs()).as("nothing dispatched").isNull();
  }

  @Test
  void bucketsStartAtTheMinuteHourAndDayInUtc() {
    long at = 1_800_000_123_456L; // 2027-01-15T08:02:03.456Z
    assertThat(ReportGrain.MINUTE.start(at)).isEqualTo(1_800_000_120_000L);
    assertThat(ReportGrain.HOUR.start(at)).isEqualTo(1_800_000_000_000L);
    assertThat(ReportGrain.DAY.start(at)).isEqualTo(1_799_971_200_000L);
  }
}
