package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackConfig;
import io.tasklane.testkit.LocalStackException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A private mariadbd child process: initialises its datadir on first use, starts it on its own
 * port, socket, pid and log files, and waits until it accepts JDBC connections. Used by one thread
 * at a time (the one starting or closing the stack).
 */
public final class MariaDbServer {

  private static final Duration INSTALL_TIMEOUT = Duration.ofSeconds(120);

  private final StackLayout layout;
  private final int port;
  private final Process process;
  private final long logOffset;

  private MariaDbServer(StackLayout layout, int port, Process process, long logOffset) {
    this.layout = layout;
    this.port = port;
    this.process = process;
    this.logOffset = logOffset;
  }

  /** Initialises the datadir if needed and spawns mariadbd; does not wait for readiness. */
  public static MariaDbServer launch(
      MariaDbBinaries binaries, LocalStackConfig config, StackLayout layout, int port)
      throws IOException {
    Files.createDirectories(layout.binlogDir());
    if (!Files.exists(layout.initializedMarker())) {
      initialise(binaries, layout);
    }
    Files.deleteIfExists(layout.mariaDbPidFile());
    Files.deleteIfExists(layout.socket());
    List<String> command = new ArrayList<>();
    if (config.detached()) {
      Detach.prefix().ifPresent(command::add);
    }
    command.add(binaries.server().toString());
    command.add("--no-defaults");
    command.add(layout.mariaDbMarker());
    userFlag().ifPresent(command::add);
    command.addAll(
        List.of(
            "--port=" + port,
            "--bind-address=127.0.0.1",
            "--socket=" + layout.socket(),
            "--pid-file=" + layout.mariaDbPidFile(),
            "--log-error=" + layout.mariaDbErrorLog(),
            "--skip-name-resolve",
            "--server-id=1",
            "--log-bin=" + layout.binlogDir().resolve("mysql-bin"),
            "--log-bin-index=" + layout.binlogDir().resolve("mysql-bin.index"),
            "--binlog-format=ROW",
            "--binlog-row-image=FULL",
            "--gtid-strict-mode=ON",
            "--character-set-server=utf8mb4",
            "--innodb-flush-log-at-trx-commit=" + config.innodbFlushLogAtTrxCommit(),
            "--sync-binlog=" + config.syncBinlog(),
            "--innodb-log-file-size=32M",
            "--max-connections=300",
            "--max-allowed-packet=64M"));
    Path errorLog = layout.mariaDbErrorLog();
    long logOffset = Files.exists(errorLog) ? Files.size(errorLog) : 0;
    Process process =
        new ProcessBuilder(command)
            .directory(layout.mariaDbDir().toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(layout.mariaDbOutputLog().toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    if (!config.detached()) {
      ShutdownReaper.register(process.toHandle());
    }
    return new MariaDbServer(layout, port, process, logOffset);
  }

  private static void initialise(MariaDbBinaries binaries, StackLayout layout) throws IOException {
    Dirs.deleteRecursively(layout.dataDir());
    Dirs.deleteRecursively(layout.binlogDir());
    Files.createDirectories(layout.binlogDir());
    List<String> command = new ArrayList<>();
    command.add(binaries.installDb().toString());
    command.add("--no-defaults");
    command.add("--datadir=" + layout.dataDir());
    userFlag().ifPresent(command::add);
    command.addAll(
        List.of(
            "--auth-root-authentication-method=normal",
            "--skip-test-db",
            "--skip-name-resolve",
            "--innodb-log-file-size=32M"));
    Process install =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(layout.installLog().toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    boolean exited = Processes.awaitExit(install, INSTALL_TIMEOUT);
    if (!exited || install.exitValue() != 0) {
      Processes.stop(install.toHandle(), Duration.ofSeconds(1));
      throw new LocalStackException(
          "MariaDB: mariadb-install-db failed ("
              + (exited ? "exit code " + install.exitValue() : "timed out")
              + ") for datadir "
              + layout.dataDir()
              + "\n"
              + Processes.tail(layout.installLog(), 30));
    }
    Files.writeString(layout.initializedMarker(), "initialised by tasklane testkit\n");
  }

  /** {@code --user=root} when running as root (mariadbd refuses root otherwise). */
  private static java.util.Optional<String> userFlag() {
    return "root".equals(System.getProperty("user.name"))
        ? java.util.Optional.of("--user=root")
        : java.util.Optional.empty();
  }

  /** Waits until root can open a JDBC connection; fails early if mariadbd exits. */
  public void awaitReady(long deadlineNanos) {
    SQLException last = null;
    while (true) {
      if (!process.isAlive()) {
        throw failure("mariadbd exited with code " + process.exitValue() + " during startup", null);
      }
      try (Connection ignored = DriverManager.getConnection(rootJdbcUrl(port))) {
        return;
      } catch (SQLException e) {
        last = e;
      }
      if (System.nanoTime() > deadlineNanos) {
        throw failure("mariadbd did not accept JDBC connections in time", last);
      }
      Processes.pause(50);
    }
  }

  /** A failure of this server, with the tail of its error log; the caller stops the stack. */
  public LocalStackException failure(String what, Throwable cause) {
    return new LocalStackException(
        "MariaDB failed to start: "
            + what
            + " (127.0.0.1:"
            + port
            + ", datadir "
            + layout.dataDir()
            + ")\n"
            + Processes.tail(layout.mariaDbErrorLog(), logOffset, 30),
        cause);
  }

  /** JDBC URL for root (no password) without a default database. */
  public static String rootJdbcUrl(int port) {
    return "jdbc:mariadb://127.0.0.1:" + port + "/?user=root&connectTimeout=2000";
  }

  public long pid() {
    return process.pid();
  }

  public int port() {
    return port;
  }

  /** Shuts mariadbd down (SIGTERM, then SIGKILL after {@code grace}); blocks until it is gone. */
  public void stop(Duration grace) {
    Processes.stop(process.toHandle(), grace);
    ShutdownReaper.unregister(process.toHandle());
  }
}
