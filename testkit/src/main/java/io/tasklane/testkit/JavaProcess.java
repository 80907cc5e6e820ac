package io.tasklane.testkit;

import io.tasklane.testkit.internal.Detach;
import io.tasklane.testkit.internal.Processes;
import io.tasklane.testkit.internal.ShutdownReaper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Tasklane app (relay, scheduler, worker, demo) started as a separate JVM, as a user deploys it,
 * so tests can {@link #kill9()} it for real. Output goes to a log file. Every started process is
 * killed by a JVM shutdown hook if the test forgets, and by {@link #close()}.
 *
 * <p>Not thread-safe; one test thread drives one process.
 */
public final class JavaProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Path logFile;

  private JavaProcess(String name, Process process, Path logFile) {
    this.name = name;
    this.process = process;
    this.logFile = logFile;
  }

  /** Starts describing a JVM running {@code mainClass}. */
  public static Builder builder(String mainClass) {
    return new Builder(mainClass);
  }

  /** The name given to the builder (names the log file and the process in messages). */
  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path logFile() {
    return logFile;
  }

  /** The last {@code lines} lines of the process's output (for failure messages). */
  public String logTail(int lines) {
    return Processes.tail(logFile, lines);
  }

  /** SIGKILL, as a crash: no shutdown hooks run in the process. Waits until it is gone. */
  public void kill9() {
    Processes.kill9(process.toHandle());
    ShutdownReaper.unregister(process.toHandle());
  }

  /** SIGTERM (graceful shutdown), then SIGKILL if still alive after {@code grace}. */
  public void stop(Duration grace) {
    Processes.stop(process.toHandle(), grace);
    ShutdownReaper.unregister(process.toHandle());
  }

  /** Waits for the process to exit and returns its exit code, or -1 on timeout. */
  public int waitFor(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
  }

  @Override
  public void close() {
    stop(Duration.ofSeconds(10));
  }

  @Override
  public String toString() {
    return name + "(pid " + pid() + ")";
  }

  /** Describes the JVM to start. */
  public static final class Builder {
    private final String mainClass;
    private String classpath = System.getProperty("java.class.path");
    private final List<String> jvmArgs = new ArrayList<>(List.of("-Xmx512m"));
    private final List<String> args = new ArrayList<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private Path logFile;
    private String name;
    private boolean detached;

    private Builder(String mainClass) {
      this.mainClass = mainClass;
      this.name = mainClass.substring(mainClass.lastIndexOf('.') + 1);
    }

    /** Classpath of the JVM; defaults to the current JVM's (the test classpath). */
    public Builder classpath(String cp) {
      this.classpath = cp;
      return this;
    }

    public Builder name(String n) {
      this.name = n;
      return this;
    }

    public Builder jvmArg(String arg) {
      jvmArgs.add(arg);
      return this;
    }

    public Builder sysProp(String key, String value) {
      jvmArgs.add("-D" + key + "=" + value);
      return this;
    }

    public Builder arg(String arg) {
      args.add(arg);
      return this;
    }

    public Builder env(String key, String value) {
      env.put(key, value);
      return this;
    }

    /**
     * True: the process outlives this JVM (own session through {@code setsid}, no kill on exit),
     * for a run that leaves its apps running ({@code bin/demo --keep}); stop it by its pid.
     */
    public Builder detached(boolean value) {
      this.detached = value;
      return this;
    }

    /** Where stdout and stderr go; defaults to {@code target/processes/<name>-<time>.log}. */
    public Builder logFile(Path file) {
      this.logFile = file;
      return this;
    }

    public JavaProcess start() {
      Path log =
          logFile != null
              ? logFile
              : Path.of("target", "processes", name + "-" + System.nanoTime() + ".log");
      List<String> cmd = new ArrayList<>();
      if (detached) {
        Detach.prefix().ifPresent(cmd::add); // setsid execs in place: the pid stays the same
      }
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.addAll(jvmArgs);
      cmd.add("-cp");
      cmd.add(classpath);
      cmd.add(mainClass);
      cmd.addAll(args);
      try {
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!detached) {
          ShutdownReaper.register(p.toHandle());
        }
        return new JavaProcess(name, p, log);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start " + name + " (" + mainClass + ")", e);
      }
    }
  }
}
