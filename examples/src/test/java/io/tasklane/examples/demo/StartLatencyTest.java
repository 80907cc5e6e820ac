package io.tasklane.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The demo summary's commit → handler start split at 10 s after the first order's commit. */
class StartLatencyTest {
  private static final long T0 = 1_800_000_000_000L;

  @Test
  void ordersOfTheFirstTenSecondsAreCountedApartFromTheRest() {
    StartLatency s = new StartLatency(T0);
    for (int i = 0; i < 100; i++) {
      s.add(T0 + i * 99, T0 + i * 99 + 2_000); // cold: 2 s each, committed in the first 9.9 s
    }
    for (int i = 0; i < 300; i++) {
      long at = T0 + 10_000 + i * 100;
      s.add(at, at + 50);
    }

    assertThat(s.first().getTotalCount()).isEqualTo(100);
    assertThat(s.first().getValueAtPercentile(99)).isBetween(1_999L, 2_001L);
    assertThat(s.rest().getTotalCount()).isEqualTo(300);
    assertThat(s.rest().getValueAtPercentile(99)).isEqualTo(50);
    assertThat(s.whole().getTotalCount()).isEqualTo(400);
    assertThat(s.whole().getValueAtPercentile(50)).isEqualTo(50);
  }

  @Test
  void theSummaryShowsTheWholeRunThenTheFirstTenSecondsAndTheRest() {
    StartLatency s = new StartLatency(T0);
    s.add(T0, T0 + 1_500);
    s.add(T0 + 10_000, T0 + 10_040);
    s.add(T0 + 12_000, T0 + 11_000); // a clock step: counted as 0 ms, not negative

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    s.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");

    assertThat(lines).hasSize(2);
    assertThat(lines[0])
        .startsWith("  commit → handler start (e-mails): p50 40 ms")
        .contains("(3 tasks)");
    assertThat(lines[1])
        .matches(
            "    orders of the first 10 s: p50 150\\d ms, p99 150\\d ms \\(1 tasks\\);"
                + " after them: p50 0 ms, p99 40 ms \\(2 tasks\\)");
  }
}
