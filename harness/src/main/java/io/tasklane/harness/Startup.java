package io.tasklane.harness;

import io.tasklane.testkit.JavaProcess;
import java.util.Collection;

/** Checks while a run waits for its apps to come up. */
public final class Startup {
  private Startup() {}

  /** Throws, with the last 40 log lines, if one of {@code apps} died during start-up. */
  public static void requireAlive(Collection<JavaProcess> apps) {
    for (JavaProcess p : apps) {
      if (!p.isAlive()) {
        throw new IllegalStateException(p + " died during start-up:\n" + p.logTail(40));
      }
    }
  }
}
