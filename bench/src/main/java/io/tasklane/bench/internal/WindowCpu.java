package io.tasklane.bench.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The CPU time ({@link CpuTimes}) of some processes and counts of work done over a wall-clock
 * window ahead, each sampled at the window's start and end on a timer thread of its own, so that a
 * scenario's own thread may be busy watching. Gives the CPU cost of one unit of the first count's
 * work per process (for (b) of the schedules scenario, microseconds per fire), and what each count
 * grew by in the window. Closing stops the timer.
 */
final class WindowCpu implements AutoCloseable {
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "bench-window-cpu");
            t.setDaemon(true);
            return t;
          });
  private final Map<String, Long> pids;
  private final Supplier<long[]> counts;
  private volatile Sample first;
  private volatile Sample last;

  private record Sample(Map<String, Long> micros, long[] counts) {}

  /**
   * Samples {@code pids} and {@code counts} (each -1 when it cannot be read; the first one counts
   * the units) at {@code from} and at {@code to} (epoch millis).
   */
  WindowCpu(Map<String, Long> pids, Supplier<long[]> counts, long from, long to) {
    this.pids = pids;
    this.counts = counts;
    long now = System.currentTimeMillis();
    timer.schedule(() -> first = sample(), Math.max(0, from - now), TimeUnit.MILLISECONDS);
    timer.schedule(() -> last = sample(), Math.max(0, to - now), TimeUnit.MILLISECONDS);
  }

  private Sample sample() {
    return new Sample(CpuTimes.sample(pids), counts.get());
  }

  /** The units counted in the window, or -1 when it has not been sampled at both ends. */
  long counted() {
    return counted(0);
  }

  /** What count {@code i} grew by in the window, or -1 when it was not read at both ends. */
  long counted(int i) {
    Sample a = first;
    Sample b = last;
    return a == null || b == null || a.counts()[i] < 0 || b.counts()[i] < 0
        ? -1
        : b.counts()[i] - a.counts()[i];
  }

  /**
   * CPU microseconds per unit of each process over the window, plus {@code total}; empty when the
   * window was not sampled at both ends or nothing was counted in it.
   */
  Map<String, Double> perUnit() {
    long n = counted();
    return n <= 0 ? new LinkedHashMap<>() : CpuTimes.perTask(first.micros(), last.micros(), n);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
