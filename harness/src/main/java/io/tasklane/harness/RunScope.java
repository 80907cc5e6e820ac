package io.tasklane.harness;

import io.tasklane.testkit.JavaProcess;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Everything one run started (stack, app processes, clients, threads), stopped in reverse order by
 * {@link #close()}, which a JVM shutdown hook also calls on Ctrl-C. A process gets SIGTERM and is
 * killed if still alive after the grace period. Thread-safe: the hook may close the scope while the
 * run's thread still adds to it; closing twice is harmless.
 */
public final class RunScope implements AutoCloseable {
  private final PrintStream out;
  private final Duration processGrace;
  private final List<AutoCloseable> started = new CopyOnWriteArrayList<>();
  private final Thread hook;

  /**
   * @param name names the shutdown hook's thread ({@code <name>-shutdown})
   * @param out where a failure to stop something is reported
   * @param processGrace how long a {@link JavaProcess} may take to stop after SIGTERM
   */
  public RunScope(String name, PrintStream out, Duration processGrace) {
    this.out = out;
    this.processGrace = processGrace;
    this.hook = new Thread(this::stopAll, name + "-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Adds {@code resource} to what {@link #close()} stops; returns it. */
  public <T extends AutoCloseable> T track(T resource) {
    started.add(resource);
    return resource;
  }

  /**
   * Forgets {@code resources} without stopping them: what a run leaves running on purpose ({@code
   * bin/demo --keep}).
   */
  public void release(AutoCloseable... resources) {
    for (AutoCloseable r : resources) {
      started.remove(r);
    }
  }

  /** Stops everything tracked, last first; a failure is reported and the rest still stopped. */
  private void stopAll() {
    for (int i = started.size() - 1; i >= 0; i--) {
      AutoCloseable c = started.get(i);
      try {
        if (c instanceof JavaProcess p) {
          p.stop(processGrace);
        } else {
          c.close();
        }
      } catch (Exception e) {
        out.println("while stopping " + c + ": " + e);
      }
    }
    started.clear();
  }

  @Override
  public void close() {
    stopAll();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // already shutting down: the hook is what stops everything
    }
  }
}
