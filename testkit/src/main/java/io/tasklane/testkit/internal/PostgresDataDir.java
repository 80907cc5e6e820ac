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
 * The data dir of a {@link PostgresServer} and the processes on it: {@code initdb} on first use,
 * ownership by the OS user {@code postgres} when this JVM runs as root (the server refuses root),
 * and the postmaster of a killed run that still holds the dir. Stateless; one thread per dir.
 */
final class PostgresDataDir {
  static final String OS_USER = "postgres";
  private static final Duration INITDB_TIMEOUT = Duration.ofSeconds(120);

  private PostgresDataDir() {}

  static void initialise(PostgresBinaries binaries, Path dir) throws IOException {
    Path data = dir.resolve("data");
    Dirs.deleteRecursively(data);
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
            .directory(dir.toFile())
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

  static void ownByServerUser(Path path) throws IOException {
    if (!runsAsRoot()) {
      return;
    }
    for (Path up = path.toAbsolutePath().getParent(); up != null; up = up.getParent()) {
      if (!Files.getPosixFilePermissions(up).contains(PosixFilePermission.OTHERS_EXECUTE)) {
        throw new LocalStackException(
            "PostgreSQL runs as the OS user '"
                + OS_USER
                + "', which cannot enter "
                + up
                + " (no execute permission for others): choose a stack dir whose parents are"
                + " world-searchable (chmod o+x)");
      }
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

  /** Stops a postmaster of a killed run that still uses {@code dir}'s data dir (ours only). */
  static void stopLeftover(Path dir) {
    Path data = dir.resolve("data");
    Optional<Long> pid = postmasterPid(data);
    pid.filter(p -> isPostmaster(p, data))
        .flatMap(ProcessHandle::of)
        .ifPresent(p -> stopPostmaster(p, Duration.ofSeconds(10)));
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
