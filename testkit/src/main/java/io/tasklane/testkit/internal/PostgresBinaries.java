package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The PostgreSQL server binaries {@code initdb} and {@code postgres}: Debian's {@code
 * /usr/lib/postgresql/<version>/bin} (newest version first), else {@code PATH}. Stateless.
 */
public record PostgresBinaries(Path initdb, Path server) {

  static final Path DEBIAN_ROOT = Path.of("/usr/lib/postgresql");

  /**
   * @throws LocalStackException saying how to install the server if no binaries are found
   */
  public static PostgresBinaries find() {
    return debian().or(PostgresBinaries::onPath).orElseThrow(() -> missing());
  }

  private static Optional<PostgresBinaries> debian() {
    if (!Files.isDirectory(DEBIAN_ROOT)) {
      return Optional.empty();
    }
    try (Stream<Path> versions = Files.list(DEBIAN_ROOT)) {
      return versions
          .filter(v -> v.getFileName().toString().matches("\\d+(\\.\\d+)?"))
          .sorted(
              Comparator.comparingDouble((Path v) -> Double.parseDouble(v.getFileName().toString()))
                  .reversed())
          .map(v -> v.resolve("bin"))
          .map(bin -> new PostgresBinaries(bin.resolve("initdb"), bin.resolve("postgres")))
          .filter(PostgresBinaries::executable)
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static Optional<PostgresBinaries> onPath() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    return Stream.of(path.split(":"))
        .filter(dir -> !dir.isBlank())
        .map(Path::of)
        .map(dir -> new PostgresBinaries(dir.resolve("initdb"), dir.resolve("postgres")))
        .filter(PostgresBinaries::executable)
        .findFirst();
  }

  private boolean executable() {
    return Files.isExecutable(initdb) && Files.isExecutable(server);
  }

  private static LocalStackException missing() {
    return new LocalStackException(
        "PostgreSQL server binaries (initdb, postgres) not found in "
            + DEBIAN_ROOT
            + "/<version>/bin or on PATH: run 'apt-get install -y postgresql'"
            + " (bin/lib/ensure-postgres.sh does it as root)");
  }
}
