package io.tasklane.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The class-data-sharing archive (AppCDS, JDK 17's dynamic archive) of one app: the classes a
 * former run of the same main class loaded, mapped at start instead of loaded and verified again.
 * JDK 17 archives only classes from jars, so an app with one runs on its module's jar ({@code
 * target/<artifact>.jar}, made by {@code ./mvnw install}) instead of {@code target/classes}; a jar
 * older than a file under {@code target/classes} means the classes were rebuilt without packaging,
 * and the app then runs on the directory, without an archive.
 *
 * <p>The archive lives in {@code <home>/target/cds/<main class>-<JVM version>.jsa}. When it is
 * missing or older than a jar of the class path, the app records a new one, written when it exits
 * normally (a stop, not a kill -9); a run records each archive from one process only. A stale or
 * unreadable archive is ignored by the JVM ({@code -Xshare:auto}); {@code -D}{@value
 * #ENABLED}{@code =false} turns archives off. Used on the thread that starts the apps; the set of
 * archives being recorded is thread-safe.
 */
final class ClassArchive {
  /** {@code -Dtasklane.apps.cds=false}: every app on its classes, without an archive. */
  static final String ENABLED = "tasklane.apps.cds";

  /** Archives a process of this JVM records now: at most one writer per file. */
  private static final Set<Path> RECORDING = ConcurrentHashMap.newKeySet();

  private ClassArchive() {}

  /**
   * The class path and the JVM options for {@code mainClass} of {@code module}: the module's jar
   * with an archive when the jar is current, else {@code target/classes} and no options.
   *
   * @param deps the module's dependencies ({@code app.classpath}, colon-separated)
   */
  static Launch of(Path home, String module, String mainClass, String deps) {
    Path target = home.resolve(module).resolve("target");
    Path classes = target.resolve("classes");
    String plain = classes + (deps.isEmpty() ? "" : ":" + deps);
    Optional<Path> jar =
        Boolean.parseBoolean(System.getProperty(ENABLED, "true"))
            ? currentJar(target, classes)
            : Optional.empty();
    if (jar.isEmpty()) {
      return new Launch(plain, List.of());
    }
    String cp = jar.get() + (deps.isEmpty() ? "" : ":" + deps);
    Path archive =
        home.resolve("target/cds")
            .resolve(mainClass + "-" + System.getProperty("java.vm.version") + ".jsa");
    try {
      Files.createDirectories(archive.getParent());
      if (Files.isRegularFile(archive) && newerThanJars(archive, cp)) {
        return new Launch(cp, List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto"));
      }
      if (RECORDING.add(archive)) {
        Files.deleteIfExists(archive);
        // the dump's notes on classes it cannot archive (JFR events, old bytecode) are not errors
        return new Launch(cp, List.of("-XX:ArchiveClassesAtExit=" + archive, "-Xlog:cds=off"));
      }
      return new Launch(cp, List.of());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the class archive " + archive, e);
    }
  }

  /** {@code target/tasklane-*.jar} (not sources, javadoc or tests) when no class is newer. */
  private static Optional<Path> currentJar(Path target, Path classes) {
    if (!Files.isDirectory(target)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(target)) {
      List<Path> jars = new ArrayList<>();
      files
          .filter(
              p ->
                  p.getFileName()
                      .toString()
                      .matches("tasklane-.*(?<!-sources|-javadoc|-tests)\\.jar"))
          .forEach(jars::add);
      if (jars.size() != 1) {
        return Optional.empty();
      }
      FileTime jarTime = Files.getLastModifiedTime(jars.get(0));
      if (Files.isDirectory(classes)) {
        try (Stream<Path> all = Files.walk(classes)) {
          boolean newer =
              all.filter(Files::isRegularFile).anyMatch(p -> modified(p).compareTo(jarTime) > 0);
          if (newer) {
            return Optional.empty();
          }
        }
      }
      return Optional.of(jars.get(0));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static boolean newerThanJars(Path archive, String classpath) {
    FileTime at = modified(archive);
    for (String entry : classpath.split(":")) {
      if (!entry.isEmpty() && modified(Path.of(entry)).compareTo(at) > 0) {
        return false;
      }
    }
    return true;
  }

  private static FileTime modified(Path p) {
    try {
      return Files.getLastModifiedTime(p);
    } catch (IOException e) {
      return FileTime.fromMillis(Long.MAX_VALUE); // gone: counts as newer, so not current
    }
  }

  /** What an app starts with: its class path and the archive's JVM options. */
  record Launch(String classpath, List<String> jvmArgs) {}
}
