package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Settings of the process-wide shared stack: which running stack to attach to, or where to start an
 * own one (a per-JVM dir under {@code target/tasklane-stacks}, after removing dirs of dead JVMs).
 * Stateless; called under the lock of {@code LocalStack.shared()}.
 */
public final class SharedStackSupport {

  /** Environment variable: path of a stack.properties written by {@code StackMain up}. */
  public static final String ATTACH_ENV = "TASKLANE_STACK";

  /** System property with the same meaning as {@link #ATTACH_ENV}; wins over it. */
  public static final String ATTACH_PROPERTY = "tasklane.stack";

  static final Path ROOT = Path.of("target", "tasklane-stacks");

  private SharedStackSupport() {}

  /** The stack.properties to attach to, if the system property or env var names one. */
  public static Optional<Path> attachFile() {
    String value = System.getProperty(ATTACH_PROPERTY);
    if (value == null || value.isBlank()) {
      value = System.getenv(ATTACH_ENV);
    }
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(Path.of(value));
  }

  /** Config of an own shared stack: a fresh per-JVM dir, deleted on close; test durability. */
  public static LocalStackConfig ownConfig() {
    reapDeadOwners(ROOT);
    Path dir = ROOT.resolve(Long.toString(ProcessHandle.current().pid()));
    return LocalStackConfig.builder().baseDir(dir).deleteOnClose(true).build();
  }

  /** Removes stack dirs whose owner JVM died (its lock is free), stopping their servers first. */
  static void reapDeadOwners(Path root) {
    if (!Files.isDirectory(root)) {
      return;
    }
    List<Path> dirs;
    try (Stream<Path> list = Files.list(root)) {
      dirs = list.filter(Files::isDirectory).toList();
    } catch (IOException e) {
      return;
    }
    for (Path dir : dirs) {
      try {
        Optional<StackDir> locked = StackDir.tryLock(new StackLayout(dir));
        if (locked.isPresent()) {
          try (StackDir stackDir = locked.get()) {
            stackDir.stopStaleProcesses();
          }
          Dirs.deleteRecursively(dir);
        }
      } catch (IOException | RuntimeException e) {
        // best effort: a dir we cannot clean is left for `mvn clean`
      }
    }
  }
}
