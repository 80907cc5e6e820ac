package io.tasklane.testkit.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a stack's on-demand PostgreSQL is controlled from: {@code <stack dir>/postgres-<pid of the
 * owning JVM>}, so that every test JVM attached to one shared stack owns its own server. That dir
 * records where the server's cluster lies (a private dir under the temp dir, {@link
 * PostgresDataDir}); removing a server removes both. Stateless.
 */
public final class PostgresSupport {

  static final String PREFIX = "postgres-";

  private PostgresSupport() {}

  /** The dir for a server owned by this JVM under {@code stackDir}. */
  public static Path dirFor(Path stackDir) {
    return stackDir.resolve(PREFIX + ProcessHandle.current().pid());
  }

  /**
   * Stops the servers of JVMs that died without closing them and deletes their dirs and clusters
   * ({@code postgres-<pid>} under {@code stackDir} whose pid is no longer a live process). Best
   * effort.
   */
  public static void reapDeadOwners(Path stackDir) {
    if (stackDir == null || !Files.isDirectory(stackDir)) {
      return;
    }
    List<Path> dirs;
    try (Stream<Path> list = Files.list(stackDir)) {
      dirs =
          list.filter(Files::isDirectory)
              .filter(d -> d.getFileName().toString().matches(PREFIX + "\\d+"))
              .toList();
    } catch (IOException e) {
      return;
    }
    for (Path dir : dirs) {
      long owner = Long.parseLong(dir.getFileName().toString().substring(PREFIX.length()));
      boolean alive = ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false);
      if (!alive) {
        try {
          PostgresDataDir.remove(dir);
        } catch (RuntimeException e) {
          // best effort: left for bin/stack down or mvn clean
        }
      }
    }
  }

  /**
   * Stops every on-demand server under {@code stackDir} and deletes its dir and cluster (bin/stack
   * down).
   */
  public static void stopAll(Path stackDir) {
    if (stackDir == null || !Files.isDirectory(stackDir)) {
      return;
    }
    try (Stream<Path> list = Files.list(stackDir)) {
      list.filter(d -> d.getFileName().toString().matches(PREFIX + "\\d+"))
          .forEach(PostgresDataDir::remove);
    } catch (IOException | RuntimeException e) {
      // best effort
    }
  }
}
