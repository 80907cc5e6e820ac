package io.tasklane.bench.internal;

import io.tasklane.testkit.JavaProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Exec → ready of the apps a run starts ({@code startup_ready_s_<app>}), read from each app's log
 * as it grows, every {@value #POLL_MS} ms on one daemon thread: the relay is ready when it logs
 * that it is streaming (its {@code /health} {@code streaming}), the scheduler when Kafka Streams is
 * first RUNNING (its {@code /health} UP), the worker when every handler it consumes has its first
 * assignment (its readiness {@code tasklane-worker-consumers}, less the first poll's return). The
 * figures are read on the bench thread.
 */
final class StartupReady implements AutoCloseable {
  static final int POLL_MS = 20;

  private static final Pattern CONSUMES =
      Pattern.compile("worker \\S+ consumes \\S+\\.handler\\.(\\S+) \\(");
  private static final Pattern ASSIGNED = Pattern.compile("HandlerConsumer - (\\S+) assigned \\[");

  private final Map<String, Watch> watches = new ConcurrentHashMap<>();
  private final Map<String, Double> seconds = new ConcurrentHashMap<>();
  private final Thread thread;
  private volatile boolean closed;

  StartupReady() {
    thread = new Thread(this::loop, "bench-startup-ready");
    thread.setDaemon(true);
    thread.start();
  }

  /** Recognises the relay's "is streaming" line. */
  static Predicate<String> relay() {
    return line -> line.contains("RelayRuntime - relay ") && line.endsWith(" is streaming");
  }

  /** Recognises the scheduler's first "-> RUNNING" of Kafka Streams. */
  static Predicate<String> scheduler() {
    return line ->
        line.contains("SchedulerRuntime - kafka streams ") && line.endsWith("-> RUNNING");
  }

  /**
   * Recognises the worker's last first assignment: true once the worker has listed what it consumes
   * (its heartbeat line follows the list) and each of those handlers was assigned.
   */
  static Predicate<String> worker() {
    Set<String> consumed = new HashSet<>();
    Set<String> assigned = new HashSet<>();
    boolean[] listed = {false};
    return line -> {
      Matcher c = CONSUMES.matcher(line);
      Matcher a = ASSIGNED.matcher(line);
      if (c.find()) {
        consumed.add(c.group(1));
      } else if (a.find()) {
        assigned.add(a.group(1));
      } else if (line.contains(" publishes heartbeats as ")) {
        listed[0] = true;
      }
      return listed[0] && !consumed.isEmpty() && assigned.containsAll(consumed);
    };
  }

  /**
   * Watches {@code app}, executed at {@code execNanos} ({@link System#nanoTime()} just before its
   * start), until {@code ready} accepts a line of its log; recorded under {@code key}.
   */
  void watch(String key, JavaProcess app, long execNanos, Predicate<String> ready) {
    watches.put(key, new Watch(app.logFile(), execNanos, ready));
  }

  /**
   * Puts the figures into {@code results} and prints them once {@code apps} are ready or 5 s have
   * passed (called after the probe came through: every app was ready, the log may show it a poll
   * later); stops watching.
   */
  void report(int apps, Results results, PrintStream out) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 5_000;
    while (seconds.size() < apps && System.currentTimeMillis() < deadline) {
      Thread.sleep(POLL_MS);
    }
    Map<String, Double> figures = results();
    figures.forEach(results::put);
    out.println("  exec → ready: " + figures);
    close();
  }

  /** {@code startup_ready_s_<key>} of each watched app that became ready, in seconds. */
  Map<String, Double> results() {
    Map<String, Double> out = new LinkedHashMap<>();
    new java.util.TreeMap<>(seconds).forEach((k, v) -> out.put("startup_ready_s_" + k, v));
    return out;
  }

  private void loop() {
    while (!closed) {
      for (Map.Entry<String, Watch> e : watches.entrySet()) {
        if (e.getValue().readyNow()) {
          long nanos = System.nanoTime() - e.getValue().execNanos;
          seconds.put(e.getKey(), Math.round(nanos / 1e7) / 100.0);
          watches.remove(e.getKey());
        }
      }
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException ex) {
        return;
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }

  /** One app's log, read from where the last poll stopped; used on the watching thread. */
  private static final class Watch {
    private final Path log;
    private final long execNanos;
    private final Predicate<String> ready;
    private long position;
    private final StringBuilder partial = new StringBuilder();

    Watch(Path log, long execNanos, Predicate<String> ready) {
      this.log = log;
      this.execNanos = execNanos;
      this.ready = ready;
    }

    boolean readyNow() {
      if (!Files.isRegularFile(log)) {
        return false;
      }
      try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
        long length = f.length();
        if (length <= position) {
          return false;
        }
        byte[] bytes = new byte[(int) Math.min(length - position, 1 << 20)];
        f.seek(position);
        f.readFully(bytes);
        position += bytes.length;
        partial.append(new String(bytes, StandardCharsets.UTF_8));
      } catch (IOException e) {
        return false;
      }
      int nl;
      while ((nl = partial.indexOf("\n")) >= 0) {
        String line = partial.substring(0, nl).stripTrailing();
        partial.delete(0, nl + 1);
        if (ready.test(line)) {
          return true;
        }
      }
      return false;
    }
  }
}
