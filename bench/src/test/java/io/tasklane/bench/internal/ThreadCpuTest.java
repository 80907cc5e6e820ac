package io.tasklane.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Threads are told apart by their names as /proc cuts them, and this JVM's own are counted. */
class ThreadCpuTest {
  @Test
  void threadsAreToldApartByTheirCutNames() {
    String app = "bench-scheduler";
    assertThat(ThreadCpu.kind("bench-scheduler", app)).isEqualTo("stream");
    assertThat(ThreadCpu.kind("x-scheduler-1f2", "x-scheduler")).isEqualTo("stream");
    assertThat(ThreadCpu.kind("kafka-producer-", app)).isEqualTo("producer");
    assertThat(ThreadCpu.kind("GC Thread#0", app)).isEqualTo("gc");
    assertThat(ThreadCpu.kind("G1 Conc#0", app)).isEqualTo("gc");
    assertThat(ThreadCpu.kind("VM Thread", app)).isEqualTo("gc");
    assertThat(ThreadCpu.kind("C2 CompilerThre", app)).isEqualTo("jit");
    assertThat(ThreadCpu.kind("C1 CompilerThre", app)).isEqualTo("jit");
    assertThat(ThreadCpu.kind("default-eventLo", app)).isEqualTo("other");
    assertThat(ThreadCpu.kind("bench", app))
        .as("too short to be a stream thread")
        .isEqualTo("other");
  }

  @Test
  void thisJvmsThreadsAddUp() {
    Map<String, Long> before = ThreadCpu.sample(ProcessHandle.current().pid(), "none");
    long x = 0;
    for (long i = 0; i < 300_000_000L; i++) {
      x += i % 7;
    }
    Map<String, Long> after = ThreadCpu.sample(ProcessHandle.current().pid(), "none");
    assertThat(x).isPositive();
    assertThat(after.keySet()).containsExactlyElementsOf(ThreadCpu.KINDS);
    if (System.getProperty("os.name").startsWith("Linux")) {
      assertThat(after.get("other")).isGreaterThan(before.get("other"));
    }
  }
}
