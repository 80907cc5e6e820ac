package io.tasklane.testkit.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Finding and stopping OS processes (Linux {@code /proc}). Stateless; any thread. */
public final class Processes {

  private Processes() {}

  /** The arguments of a process from {@code /proc/PID/cmdline}; empty if it is gone. */
  public static List<String> arguments(long pid) {
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return Arrays.asList(new String(raw, StandardCharsets.UTF_8).split("\0"));
    } catch (IOException e) {
      return List.of();
    }
  }

  /** True if the process is alive and one of its arguments equals {@code marker}. */
  public static boolean isOurs(long pid, String marker) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
        && arguments(pid).contains(marker);
  }

  /** Live processes with an argument equal to {@code marker}, plus {@code pidHint} if it is one. */
  public static List<ProcessHandle> findOurs(String marker, Optional<Long> pidHint) {
    List<ProcessHandle> found = new ArrayList<>();
    pidHint.filter(pid -> isOurs(pid, marker)).flatMap(ProcessHandle::of).ifPresent(found::add);
    long self = ProcessHandle.current().pid();
    ProcessHandle.allProcesses()
        .filter(p -> p.pid() != self && !found.contains(p))
        .filter(p -> arguments(p.pid()).contains(marker))
        .forEach(found::add);
    return found;
  }

  /** Reads a pid file; empty if it is missing or unreadable. */
  public static Optional<Long> readPidFile(Path file) {
    try {
      return Optional.of(Long.parseLong(Files.readString(file).trim()));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * Stops a process and its descendants: SIGTERM, up to {@code grace} to exit, then SIGKILL. Blocks
   * the calling thread until the process is gone (or a further 10 s passed).
   *
   * @return true if it exited within the grace period
   */
  public static boolean stop(ProcessHandle process, Duration grace) {
    List<ProcessHandle> descendants = process.descendants().toList();
    boolean graceful = true;
    if (process.isAlive()) {
      process.destroy();
      graceful = awaitExit(process, grace);
      if (!graceful) {
        process.destroyForcibly();
        awaitExit(process, Duration.ofSeconds(10));
      }
    }
    for (ProcessHandle child : descendants) {
      if (child.isAlive()) {
        child.destroyForcibly();
        awaitExit(child, Duration.ofSeconds(5));
      }
    }
    return graceful;
  }

  /** SIGKILL to a process and its descendants, as a crash; waits until they are gone. */
  public static void kill9(ProcessHandle process) {
    List<ProcessHandle> family =
        java.util.stream.Stream.concat(java.util.stream.Stream.of(process), process.descendants())
            .toList();
    family.forEach(ProcessHandle::destroyForcibly);
    family.forEach(p -> awaitExit(p, Duration.ofSeconds(10)));
  }

  /**
   * Waits for a child started by this JVM; when it returns {@code true}, {@link
   * Process#exitValue()} is known. (Waiting on the child's {@link ProcessHandle} can return before
   * the {@link Process} has recorded its exit code, and {@code exitValue()} then throws.)
   */
  public static boolean awaitExit(Process process, Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Waits for the process to exit; true if it did within {@code timeout}. */
  public static boolean awaitExit(ProcessHandle process, Duration timeout) {
    try {
      process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return !process.isAlive();
    } catch (ExecutionException e) {
      return !process.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !process.isAlive();
    }
  }

  /** The last {@code lines} lines of a log file, or a note saying it could not be read. */
  public static String tail(Path file, int lines) {
    return tail(file, 0, lines);
  }

  /**
   * The last {@code lines} lines of a log file after byte {@code offset} (where this run began),
   * preceded by its first ERROR line and the line after it, which the tail often no longer shows.
   */
  public static String tail(Path file, long offset, int lines) {
    try (InputStream in = Files.newInputStream(file)) {
      in.skipNBytes(Math.min(offset, Files.size(file)));
      List<String> all = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
      List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
      StringBuilder out = new StringBuilder();
      for (int i = 0; i < all.size(); i++) {
        if (all.get(i).contains(" ERROR ") && i < all.size() - last.size()) {
          out.append("--- first error in ").append(file).append(" ---\n").append(all.get(i));
          if (i + 1 < all.size()) {
            out.append('\n').append(all.get(i + 1));
          }
          out.append('\n');
          break;
        }
      }
      out.append("--- last ")
          .append(last.size())
          .append(" lines of ")
          .append(file)
          .append(" ---\n");
      return out.append(String.join("\n", last)).toString();
    } catch (IOException | RuntimeException e) {
      return "--- " + file + " could not be read: " + e + " ---";
    }
  }

  /** Sleeps a little in a polling loop; restores the interrupt flag and fails if interrupted. */
  public static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the stack", e);
    }
  }
}
