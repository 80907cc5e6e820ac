package io.tasklane.testkit.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File-tree helpers. Stateless; any thread. */
public final class Dirs {

  private Dirs() {}

  /** Deletes a file or directory tree; nothing happens if it does not exist. */
  public static void deleteRecursively(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
    }
  }
}
