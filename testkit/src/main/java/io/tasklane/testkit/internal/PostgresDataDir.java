package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The dirs of a {@link PostgresServer}. Its control dir ({@code <stack dir>/postgres-<pid>}, owned
 * by this JVM's user) holds the logs and, in {@code data-dir}, the path of the server's own dir: a
 * private dir (mode 0700) under the temp dir, owned by the OS user {@code postgres} when this JVM
 * runs as root (the server refuses root), so that the server reaches its cluster wherever the
 * checkout lies. Also {@code initdb} on first use and the postmaster of a killed run that still
 * holds the cluster. Stateless; one thread per control dir.
 */
final class PostgresDataDir {
  static final String OS_USER = "postgres";
  private static final String RECORD = "data-dir";
  private static final String HOME_PREFIX = "tasklane-pg-";
  private static final Duration INITDB_TIMEOUT = Duration.ofSeconds(120);

  private PostgresDataDir() {}

  /**
   * The server's own dir for control dir {@code dir}: the recorded one when it holds an initialised
   * cluster, else a new private one, recorded in {@code dir} before anything is written to it (so
   * that {@link #remove} finds it) and initialised with {@code initdb}.
   */
  static Path prepare(PostgresBinaries binaries, Path dir) throws IOException {
    Optional<Path> recorded = recorded(dir);
    if (recorded.isPresent()
        && Files.exists(dir.resolve("initialized"))
        && Files.isRegularFile(recorded.get().resolve("data").resolve("PG_VERSION"))) {
      return recorded.get();
    }
    recorded.ifPresent(Dirs::deleteRecursively);
    Files.deleteIfExists(dir.resolve("initialized"));
    Path home = Files.createTempDirectory(tempBase(), HOME_PREFIX); // mode 0700
    Files.writeString(dir.resolve(RECORD), home + "\n");
    ownByServerUser(home);
    initialise(binaries, dir, home);
    return home;
  }

  /**
   * The server's own dir recorded in control dir {@code dir}, if any: only an absolute path named
   * like the dirs {@link #prepare} makes, since {@link #remove} deletes it.
   */
  static Optional<Path> recorded(Path dir) {
    try {
      Path path = Path.of(Files.readString(dir.resolve(RECORD)).strip());
      boolean ours =
          path.isAbsolute()
              && path.getFileName() != null
              && path.getFileName().toString().startsWith(HOME_PREFIX);
      return ours ? Optional.of(path) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Stops a server left on control dir {@code dir}, deletes its own dir, then {@code dir}. */
  static void remove(Path dir) {
    stopLeftover(dir);
    recorded(dir).ifPresent(Dirs::deleteRecursively);
    Dirs.deleteRecursively(dir);
  }

  /** The JVM's temp dir, or /tmp when the server's OS user could not enter it. */
  private static Path tempBase() throws IOException {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
    if (!runsAsRoot() || searchableByOthers(tmp)) {
      return tmp;
    }
    Path fallback = Path.of("/tmp");
    if (searchableByOthers(fallback)) {
      return fallback;
    }
    throw new LocalStackException(
        "PostgreSQL runs as the OS user '"
            + OS_USER
            + "', which cannot enter "
            + tmp
            + " or /tmp (no execute permission for others) to reach its data dir");
  }

  private static boolean searchableByOthers(Path dir) throws IOException {
    for (Path up = dir; up != null; up = up.getParent()) {
      if (!Files.isDirectory(up)
          || !Files.getPosixFilePermissions(up).contains(PosixFilePermission.OTHERS_EXECUTE)) {
        return false;
      }
    }
    return true;
  }

  private static void initialise(PostgresBinaries binaries, Path dir, Path home)
      throws IOException {
    Path data = home.resolve("data");
    List<String> command = asServerUser();
    command.addAll(
        List.of(
            binaries.initdb().toString(),
            "-D",
            data.toString(),
            "-U",
            PostgresServer.USER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync"));
    Path log = dir.resolve("initdb.log");
    Process initdb =
        new ProcessBuilder(command)
            .directory(home.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    boolean exited = Processes.awaitExit(initdb, INITDB_TIMEOUT);
    if (!exited || initdb.exitValue() != 0) {
      Processes.stop(initdb.toHandle(), Duration.ofSeconds(1));
      throw new LocalStackException(
          "PostgreSQL: initdb failed ("
              + (exited ? "exit code " + initdb.exitValue() : "timed out")
              + ") for data dir "
              + data
              + "\n"
              + Processes.tail(log, 30));
    }
    Files.writeString(dir.resolve("initialized"), "initialised by tasklane testkit\n");
  }

  /** {@code runuser -u postgres --} when this JVM runs as root (PostgreSQL refuses root). */
  static List<String> asServerUser() {
    List<String> prefix = new ArrayList<>();
    if (runsAsRoot()) {
      prefix.addAll(List.of("runuser", "-u", OS_USER, "--"));
    }
    return prefix;
  }

  private static boolean runsAsRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static void ownByServerUser(Path path) throws IOException {
    if (!runsAsRoot()) {
      return;
    }
    UserPrincipal user;
    try {
      user = path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(OS_USER);
    } catch (IOException e) {
      throw new LocalStackException(
          "PostgreSQL refuses to run as root and the OS user '"
              + OS_USER
              + "' does not exist: run 'apt-get install -y postgresql' (it creates the user)",
          e);
    }
    Files.setOwner(path, user);
  }

  /** Stops a postmaster of a killed run that still uses the cluster recorded in {@code dir}. */
  static void stopLeftover(Path dir) {
    recorded(dir)
        .map(home -> home.resolve("data"))
        .ifPresent(
            data ->
                postmasterPid(data)
                    .filter(p -> isPostmaster(p, data))
                    .flatMap(ProcessHandle::of)
                    .ifPresent(p -> stopPostmaster(p, Duration.ofSeconds(10))));
  }

  /**
   * The first line of {@code postmaster.pid} (the file has more lines: dir, start time, port..).
   */
  private static Optional<Long> postmasterPid(Path data) {
    try {
      return Files.readAllLines(data.resolve("postmaster.pid")).stream()
          .findFirst()
          .map(String::trim)
          .map(Long::parseLong);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The postgres process serving {@code data} (not a {@code runuser} wrapper naming it too). */
  static boolean isPostmaster(long pid, Path data) {
    List<String> args = Processes.arguments(pid);
    return !args.isEmpty()
        && Path.of(args.get(0)).getFileName().toString().equals("postgres")
        && Processes.isOurs(pid, data.toString());
  }

  static void stopPostmaster(ProcessHandle postmaster, Duration grace) {
    signal(postmaster.pid(), "INT");
    if (!Processes.awaitExit(postmaster, grace)) {
      Processes.kill9(postmaster);
    }
  }

  private static void signal(long pid, String signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
      Processes.awaitExit(kill.toHandle(), Duration.ofSeconds(5));
    } catch (IOException e) {
      // the caller falls back to SIGKILL
    }
  }
}
