package io.tasklane.adoption;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A command started as a user would start it ({@code java -jar ...}, {@code mvnw ...}), output to a
 * log file. {@link #close()} sends SIGTERM, then SIGKILL to it and its descendants.
 */
final class ExternalProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Path log;

  private ExternalProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  static ExternalProcess start(
      String name, List<String> command, Map<String, String> env, Path workDir, Path logDir) {
    Path log = logDir.resolve(name + ".log");
    try {
      Files.createDirectories(logDir);
      ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
      pb.environment().putAll(env);
      pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      Process process = pb.start();
      // Also when the test JVM is interrupted: no process outlives it.
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                  }));
      return new ExternalProcess(name, process, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + command, e);
    }
  }

  /** The java of this JVM, for {@code java -jar} commands. */
  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** Waits for the exit; returns the exit code, or fails (and kills it) after {@code timeout}. */
  int waitFor(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      close();
      throw new AssertionError(name + " did not finish within " + timeout + "\n" + tail(40));
    }
    return process.exitValue();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  String output() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  String tail(int lines) {
    List<String> all = output().lines().toList();
    return "--- "
        + name
        + " ("
        + log
        + ") ---\n"
        + String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  @Override
  public void close() {
    List<ProcessHandle> family = new ArrayList<>(process.descendants().toList());
    family.add(process.toHandle());
    family.forEach(ProcessHandle::destroy);
    for (ProcessHandle p : family) {
      try {
        p.onExit().get(20, TimeUnit.SECONDS);
      } catch (Exception e) {
        p.destroyForcibly();
      }
    }
  }

  @Override
  public String toString() {
    return name + "(pid " + process.pid() + ")";
  }
}
