package io.tasklane.bench.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time (user + system) the processes of a run spent, read from {@code /proc/<pid>/stat}: the
 * process itself, the children it already reaped ({@code cutime}, {@code cstime}: a PostgreSQL
 * backend that ended) and its live descendants. Two {@link #sample samples} around a scenario give
 * each component's CPU cost per task — a figure far steadier between machines than tasks per
 * second, and the budget {@code docs/benchmarks.md} draws. Linux only; elsewhere every sample is
 * empty. Used on the run's thread.
 */
final class CpuTimes {
  /** Clock ticks per second of {@code /proc} times (USER_HZ): 100 on every Linux we know of. */
  static final long TICKS_PER_SECOND = 100;

  private CpuTimes() {}

  /** CPU microseconds of each named process (and its descendants) now; a gone process is absent. */
  static Map<String, Long> sample(Map<String, Long> pids) {
    Map<String, Long> micros = new LinkedHashMap<>();
    pids.forEach(
        (name, pid) -> {
          long us = treeMicros(pid);
          if (us >= 0) {
            micros.put(name, us);
          }
        });
    return micros;
  }

  /**
   * Microseconds of CPU per task of each component between {@code before} and {@code after}, in the
   * order of {@code after}, plus {@code total}; components missing from either are left out.
   */
  static Map<String, Double> perTask(
      Map<String, Long> before, Map<String, Long> after, long tasks) {
    Map<String, Double> per = new LinkedHashMap<>();
    double total = 0;
    for (Map.Entry<String, Long> e : after.entrySet()) {
      Long b = before.get(e.getKey());
      if (b != null && tasks > 0) {
        double us = (e.getValue() - b) / (double) tasks;
        per.put(e.getKey(), us);
        total += us;
      }
    }
    if (!per.isEmpty()) {
      per.put("total", total);
    }
    return per;
  }

  /**
   * CPU microseconds of {@code pid}, its reaped children and its live descendants, or -1. For this
   * JVM (the driver) its own time only: the apps it starts are its children and are counted apart.
   */
  static long treeMicros(long pid) {
    if (pid == ProcessHandle.current().pid()) {
      long own = ticks(pid, false);
      return own < 0 ? -1 : own * 1_000_000L / TICKS_PER_SECOND;
    }
    long own = ticks(pid, true);
    if (own < 0) {
      return -1;
    }
    long ticks =
        own
            + ProcessHandle.of(pid).stream()
                .flatMap(ProcessHandle::descendants)
                .mapToLong(p -> Math.max(0, ticks(p.pid(), false)))
                .sum();
    return ticks * 1_000_000L / TICKS_PER_SECOND;
  }

  /**
   * utime + stime (+ cutime + cstime when {@code withReaped}) of {@code pid} in clock ticks, or -1
   * when there is no such process. Fields 14 to 17 of {@code stat}, counted after the command name,
   * which may hold spaces and parentheses (hence the last ')').
   */
  static long ticks(long pid, boolean withReaped) {
    String stat;
    try {
      stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return -1;
    }
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    // f[0] is field 3 (state): utime is field 14 → f[11]
    long t = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    if (withReaped) {
      t += Long.parseLong(f[13]) + Long.parseLong(f[14]);
    }
    return t;
  }
}
