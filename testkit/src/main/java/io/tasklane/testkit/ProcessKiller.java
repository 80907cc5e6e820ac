package io.tasklane.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Stops processes and their descendants, and kills whatever is still registered when the JVM exits.
 * Thread-safe.
 */
public final class ProcessKiller {
  private static final Set<ProcessHandle> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> LIVE.forEach(p -> kill9(p)), "tasklane-testkit-process-killer"));
  }

  private ProcessKiller() {}

  /** Registers {@code process} to be killed (with descendants) when this JVM exits. */
  public static void killOnExit(ProcessHandle process) {
    LIVE.add(process);
  }

  /** Forgets a process (for servers that must outlive this JVM). */
  public static void keepOnExit(ProcessHandle process) {
    LIVE.remove(process);
  }

  /** SIGKILL to the process and its descendants; waits up to 10 s for them to vanish. */
  public static void kill9(ProcessHandle process) {
    List<ProcessHandle> all = family(process);
    all.forEach(ProcessHandle::destroyForcibly);
    all.forEach(p -> await(p, Duration.ofSeconds(10)));
    LIVE.remove(process);
  }

  /** SIGTERM, wait up to {@code grace}, then SIGKILL whatever is left. */
  public static void stop(ProcessHandle process, Duration grace) {
    List<ProcessHandle> all = family(process);
    process.destroy();
    if (!await(process, grace)) {
      all.forEach(ProcessHandle::destroyForcibly);
    }
    all.forEach(p -> await(p, Duration.ofSeconds(10)));
    all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    LIVE.remove(process);
  }

  /** The last {@code lines} lines of a log file, or a note that it is missing. */
  public static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log at " + file + ": " + e.getMessage() + ")";
    }
  }

  private static List<ProcessHandle> family(ProcessHandle process) {
    List<ProcessHandle> descendants = process.descendants().toList();
    return java.util.stream.Stream.concat(java.util.stream.Stream.of(process), descendants.stream())
        .toList();
  }

  private static boolean await(ProcessHandle p, Duration timeout) {
    try {
      p.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (Exception e) {
      return !p.isAlive();
    }
  }
}
