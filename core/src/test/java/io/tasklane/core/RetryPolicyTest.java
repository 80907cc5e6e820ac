package io.tasklane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  final SplittableRandom random = new SplittableRandom(42);

  @Test
  void sidekiqFollowsItsFormulaWithJitter() {
    RetryPolicy p = RetryPolicy.sidekiq();
    for (int attempt = 1; attempt <= 10; attempt++) {
      long min = (long) (Math.pow(attempt, 4) + 15) * 1000;
      long max = (long) (Math.pow(attempt, 4) + 15 + 29 * (attempt + 1)) * 1000;
      for (int i = 0; i < 50; i++) {
        assertThat(p.delayMs(attempt, random)).isBetween(min, max);
      }
    }
    assertThat(p.delayMs(1000, random)).isEqualTo(Duration.ofDays(7).toMillis());
  }

  @Test
  void fixedUsesTheListThenItsLastEntryWithTenPercentJitter() {
    RetryPolicy p =
        RetryPolicy.fixed(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(20));
    assertThat(p.delayMs(1, random)).isBetween(54_000L, 66_000L);
    assertThat(p.delayMs(2, random)).isBetween(270_000L, 330_000L);
    assertThat(p.delayMs(3, random)).isBetween(1_080_000L, 1_320_000L);
    assertThat(p.delayMs(9, random)).isBetween(1_080_000L, 1_320_000L);
  }

  @Test
  void exponentialDoublesUpToTheCap() {
    RetryPolicy p = RetryPolicy.exponential(Duration.ofSeconds(1), Duration.ofSeconds(60));
    assertThat(p.delayMs(1, random)).isBetween(750L, 1250L);
    assertThat(p.delayMs(4, random)).isBetween(6000L, 10000L);
    assertThat(p.delayMs(30, random)).isBetween(45_000L, 60_000L);
  }

  @Test
  void jitterVaries() {
    RetryPolicy p = RetryPolicy.exponential(Duration.ofSeconds(10), Duration.ofHours(1));
    var values = new java.util.HashSet<Long>();
    for (int i = 0; i < 20; i++) {
      values.add(p.delayMs(3, random));
    }
    assertThat(values.size()).isGreaterThan(10);
  }

  @Test
  void badPoliciesNameTheField() {
    assertThatThrownBy(() -> new RetryPolicy.Fixed(List.of()))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageStartingWith("backoff.delaysMs:");
    assertThatThrownBy(() -> RetryPolicy.exponential(Duration.ZERO, Duration.ofSeconds(1)))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("backoff.baseMs");
    assertThatThrownBy(() -> RetryPolicy.fixed(Duration.ofDays(31)))
        .hasMessageContaining("30 days");
  }
}
