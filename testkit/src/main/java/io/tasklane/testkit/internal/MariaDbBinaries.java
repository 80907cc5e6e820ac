package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The MariaDB server and install-db programs found on this machine. A value; any thread.
 *
 * @param server {@code mariadbd} (or {@code mysqld})
 * @param installDb {@code mariadb-install-db} (or {@code mysql_install_db})
 */
public record MariaDbBinaries(Path server, Path installDb) {

  /** The one line printed when the server is missing. */
  public static final String NOT_FOUND =
      "MariaDB server binary not found: run 'apt-get install -y mariadb-server'";

  private static final List<String> EXTRA_DIRS =
      List.of("/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/usr/libexec", "/usr/bin");

  /**
   * Searches PATH, /usr/sbin, /usr/local/bin and /usr/libexec.
   *
   * @throws LocalStackException with {@link #NOT_FOUND} if there is no server binary
   */
  public static MariaDbBinaries locate() {
    List<Path> dirs = searchDirs();
    Path server =
        find(dirs, "mariadbd").or(() -> find(dirs, "mysqld")).orElseThrow(MariaDbBinaries::missing);
    List<Path> installDirs = new ArrayList<>();
    installDirs.add(server.getParent());
    installDirs.add(server.getParent().resolveSibling("bin"));
    installDirs.add(server.getParent().resolveSibling("scripts"));
    installDirs.addAll(dirs);
    Path installDb =
        find(installDirs, "mariadb-install-db")
            .or(() -> find(installDirs, "mysql_install_db"))
            .orElseThrow(
                () ->
                    new LocalStackException(
                        "mariadb-install-db not found next to "
                            + server
                            + ": run 'apt-get install -y mariadb-server'"));
    return new MariaDbBinaries(server, installDb);
  }

  private static LocalStackException missing() {
    return new LocalStackException(NOT_FOUND);
  }

  private static List<Path> searchDirs() {
    List<Path> dirs = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      for (String entry : path.split(File.pathSeparator)) {
        if (!entry.isBlank()) {
          dirs.add(Path.of(entry));
        }
      }
    }
    EXTRA_DIRS.forEach(d -> dirs.add(Path.of(d)));
    return dirs;
  }

  private static Optional<Path> find(List<Path> dirs, String name) {
    return dirs.stream()
        .map(d -> d.resolve(name))
        .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
        .findFirst();
  }
}
