package io.tasklane.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cost model's CPU readings from {@code /proc}: own time, reaped and live descendants. */
class CpuTimesTest {

  @Test
  void perTaskSplitsEachComponentsTimeAndAddsATotal() {
    Map<String, Long> before = new LinkedHashMap<>();
    before.put("mariadb", 1_000L);
    before.put("relay", 500L);
    before.put("gone", 7L);
    Map<String, Long> after = new LinkedHashMap<>();
    after.put("mariadb", 21_000L);
    after.put("relay", 10_500L);
    after.put("new", 99L);

    Map<String, Double> per = CpuTimes.perTask(before, after, 100);

    assertThat(per)
        .containsExactly(
            Map.entry("mariadb", 200.0), Map.entry("relay", 100.0), Map.entry("total", 300.0));
    assertThat(CpuTimes.perTask(before, after, 0)).isEmpty();
  }

  @Test
  void aBusyChildProcessIsCountedInItsParentsTreeButNotInTheDriversOwnTime() throws Exception {
    Process parent = new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' & wait").start();
    try {
      long start = CpuTimes.treeMicros(parent.pid());
      assertThat(start).isGreaterThanOrEqualTo(0);
      assertThat(CpuTimes.ticks(parent.pid(), false))
          .as("the waiting parent itself hardly runs")
          .isLessThan(CpuTimes.TICKS_PER_SECOND / 2);
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> CpuTimes.treeMicros(parent.pid()) - start >= 200_000);
      long self = ProcessHandle.current().pid();
      long driver = CpuTimes.sample(Map.of("driver", self)).get("driver");
      assertThat(driver)
          .as("the driver (this JVM) counts its own time only, not the busy grandchild's")
          .isLessThanOrEqualTo(
              CpuTimes.ticks(self, false) * 1_000_000L / CpuTimes.TICKS_PER_SECOND);
    } finally {
      parent.descendants().forEach(ProcessHandle::destroyForcibly);
      parent.destroyForcibly().waitFor();
    }
    assertThat(CpuTimes.treeMicros(parent.pid())).isEqualTo(-1);
    assertThat(CpuTimes.sample(Map.of("gone", parent.pid()))).isEmpty();
  }
}
