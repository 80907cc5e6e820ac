package io.tasklane.bench.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The CPU time ({@link CpuTimes}) of some processes and a count of work done over a wall-clock
 * window ahead, each sampled at the window's start and end on a timer thread of its own, so that a
 * scenario's own thread may be busy watching. Gives the CPU cost of one unit of that work per
 * process (for (b) of the schedules scenario, microseconds per fire). Closing stops the timer.
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
  private final LongSupplier count;
  private volatile Sample first;
  private volatile Sample last;

  private record Sample(Map<String, Long> micros, long count) {}

  /** Samples {@code pids} and {@code count} at {@code from} and at {@code to} (epoch millis). */
  WindowCpu(Map<String, Long> pids, LongSupplier count, long from, long to) {
    this.pids = pids;
    this.count = count;
    long now = System.currentTimeMillis();
    timer.schedule(() -> first = sample(), Math.max(0, from - now), TimeUnit.MILLISECONDS);
    timer.schedule(() -> last = sample(), Math.max(0, to - now), TimeUnit.MILLISECONDS);
  }

  private Sample sample() {
    return new Sample(CpuTimes.sample(pids), count.getAsLong());
  }

  /** The units counted in the window, or -1 when it has not been sampled at both ends. */
  long counted() {
    Sample a = first;
    Sample b = last;
    return a == null || b == null || a.count() < 0 || b.count() < 0 ? -1 : b.count() - a.count();
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
