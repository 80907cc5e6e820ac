package io.tasklane.chaos.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateCheckTest {
  @Test
  void startsSpacedByTheRateStayWithinTheBound() {
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      starts.add(10_000L + i * 20L); // 50 a second
    }
    RateCheck.Result r = RateCheck.check(200, starts, 60);
    assertThat(r.mostInASecond()).isEqualTo(50);
    assertThat(r.overLimit()).isZero();
    assertThat(r.evidence()).isEmpty();
  }

  @Test
  void aBunchInsideOneSlidingSecondIsCaughtThoughItSpansTwoWholeSeconds() {
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      starts.add(10_600L + i * 10L); // 10.6 s to 11.0 s
    }
    for (int i = 0; i < 40; i++) {
      starts.add(11_010L + i * 10L); // 11.01 s to 11.4 s
    }
    RateCheck.Result r = RateCheck.check(80, starts, 60);
    assertThat(r.mostInASecond()).isEqualTo(80);
    assertThat(r.overLimit()).isEqualTo(20);
    assertThat(r.evidence()).hasSize(1).allMatch(e -> e.contains("more than rate + burst = 60"));
  }
}
