package io.tasklane.bench.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where one app's CPU goes, by kind of thread, read from {@code /proc/<pid>/task/<tid>/stat} of the
 * process and its descendants: its Kafka Streams threads ({@code stream}: the threads named after
 * its application id, the stream threads and their state updater), its Kafka producers' network
 * threads ({@code producer}), the garbage collector and the VM thread ({@code gc}), the JIT
 * compilers ({@code jit}) and the rest ({@code other}). A thread's name there is cut to 15
 * characters, which is enough for these. A thread that ends between two samples takes its time with
 * it, so the parts of a window can add up to less than the process's own figure. Linux only;
 * elsewhere every sample is empty. Used on the run's thread.
 */
final class ThreadCpu {
  static final List<String> KINDS = List.of("stream", "producer", "gc", "jit", "other");

  private ThreadCpu() {}

  /** CPU microseconds per kind of thread of {@code pid} and its descendants now. */
  static Map<String, Long> sample(long pid, String applicationId) {
    Map<String, Long> micros = new LinkedHashMap<>();
    KINDS.forEach(k -> micros.put(k, 0L));
    ProcessHandle.of(pid).stream()
        .flatMap(p -> Stream.concat(Stream.of(p), p.descendants()))
        .forEach(p -> threads(p.pid(), applicationId, micros));
    return micros;
  }

  private static void threads(long pid, String applicationId, Map<String, Long> micros) {
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    try (Stream<Path> tids = Files.list(tasks)) {
      tids.forEach(
          tid -> {
            try {
              String stat = Files.readString(tid.resolve("stat"), StandardCharsets.UTF_8);
              String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
              String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
              long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
              micros.merge(
                  kind(name, applicationId),
                  ticks * 1_000_000L / CpuTimes.TICKS_PER_SECOND,
                  Long::sum);
            } catch (IOException | RuntimeException e) {
              // the thread ended meanwhile
            }
          });
    } catch (IOException e) {
      // the process ended, or no /proc here
    }
  }

  /** The kind of a thread by its name as {@code /proc} gives it (at most 15 characters). */
  static String kind(String name, String applicationId) {
    String stream = applicationId + "-";
    if (name.length() >= Math.min(15, stream.length())
        && stream.startsWith(name.substring(0, Math.min(name.length(), stream.length())))) {
      return "stream";
    }
    if (name.startsWith("kafka-producer")) {
      return "producer";
    }
    if (name.startsWith("GC Thread")
        || name.startsWith("G1 ")
        || name.equals("VM Thread")
        || name.startsWith("VM Periodic")) {
      return "gc";
    }
    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
      return "jit";
    }
    return "other";
  }

  /** Microseconds per task of each kind between two samples. */
  static Map<String, Double> perTask(
      Map<String, Long> before, Map<String, Long> after, long tasks) {
    Map<String, Double> per = new LinkedHashMap<>();
    if (tasks <= 0) {
      return per;
    }
    for (String k : KINDS) {
      per.put(k, (after.getOrDefault(k, 0L) - before.getOrDefault(k, 0L)) / (double) tasks);
    }
    return per;
  }
}
