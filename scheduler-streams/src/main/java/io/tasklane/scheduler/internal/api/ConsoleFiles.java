package io.tasklane.scheduler.internal.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The web console's files, a fixed table read once when the controller is built: every regular file
 * under {@link ConsoleController#ROOT} on the classpath (a directory or a jar) by its relative
 * path, plus the chart library's {@link #VENDOR} files from the uPlot webjar under {@code vendor/}.
 * A lookup never adds to the table, so a flood of unknown names allocates nothing that lasts. Built
 * on the thread that creates the controller; read by event-loop threads afterwards (immutable,
 * safely published through a final field).
 */
final class ConsoleFiles {
  /** The uPlot webjar's files the page loads, served as {@code vendor/<name>}. */
  static final List<String> VENDOR = List.of("uPlot.iife.min.js", "uPlot.min.css");

  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "png", "image/png",
          "svg", "image/svg+xml");

  /** One file: its bytes and its {@code Content-Type}. */
  record File(byte[] bytes, String type) {}

  private final Map<String, File> files;

  private ConsoleFiles(Map<String, File> files) {
    this.files = Map.copyOf(files);
  }

  /** The file at {@code path} (relative to {@code /console/}), or empty: never cached. */
  Optional<File> find(String path) {
    return Optional.ofNullable(files.get(path));
  }

  /** How many files the table holds; it never changes after {@link #load()}. */
  int size() {
    return files.size();
  }

  /** Reads the console's files from the classpath; fails when the page itself is missing. */
  static ConsoleFiles load() {
    Map<String, File> files = new TreeMap<>();
    for (String rel : list(ConsoleController.ROOT)) {
      add(files, rel, ConsoleController.ROOT + rel);
    }
    for (String name : VENDOR) {
      add(files, "vendor/" + name, ConsoleController.UPLOT + name);
    }
    if (!files.containsKey("index.html")) {
      throw new IllegalStateException("no " + ConsoleController.ROOT + "index.html on classpath");
    }
    return new ConsoleFiles(files);
  }

  private static void add(Map<String, File> files, String rel, String resource) {
    String type = TYPES.get(rel.substring(rel.lastIndexOf('.') + 1));
    if (type == null || !ConsoleController.SAFE.matcher(rel).matches()) {
      return; // a file the console never asks for (e.g. a README beside the assets)
    }
    read(resource).ifPresent(bytes -> files.put(rel, new File(bytes, type)));
  }

  /** The resource's bytes, or empty when it is not on the classpath. */
  static Optional<byte[]> read(String resource) {
    try (InputStream in = ConsoleFiles.class.getResourceAsStream(resource)) {
      return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The paths, relative to {@code root}, of the regular files under the classpath directory. */
  static List<String> list(String root) {
    var url = ConsoleFiles.class.getResource(root);
    if (url == null) {
      return List.of();
    }
    try {
      URI uri = url.toURI();
      if (!"jar".equals(uri.getScheme())) {
        return walk(Path.of(uri));
      }
      try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
        return walk(jar.getPath(root));
      } catch (FileSystemAlreadyExistsException e) {
        return walk(FileSystems.getFileSystem(uri).getPath(root));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> walk(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .sorted()
          .toList();
    }
  }
}
