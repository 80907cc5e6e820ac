package io.tasklane.testkit.internal;

import io.tasklane.testkit.LocalStackException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A private PostgreSQL server as a child process: {@code initdb} of its own data dir on first use
 * (superuser {@code tasklane}, trust authentication, UTF8), {@code postgres} on a free port of
 * 127.0.0.1 with {@code wal_level=logical} (test durability: asynchronous commits, which the WAL
 * writer flushes every 10 ms, so the relay sees them soon), readiness = a JDBC connection. The
 * control dir holds the logs; the cluster lies in a private dir under the temp dir ({@link
 * PostgresDataDir}), so the server reaches it wherever the control dir is. As root both run as the
 * OS user {@code postgres} (the server refuses root) and the cluster's dir belongs to that user.
 * Stopped with SIGINT (PostgreSQL's fast shutdown), SIGKILL after a grace period; a JVM shutdown
 * hook does the same if the JVM exits first. One thread at a time (the one starting or closing it).
 */
public final class PostgresServer {

  /** The superuser initdb creates; trust authentication, so any password is accepted. */
  public static final String USER = "tasklane";

  public static final String PASSWORD = "tasklane";

  /** The database created at start, the default of {@code jdbcUrl()}. */
  public static final String DEFAULT_DATABASE = "tasklane";

  private static final Duration GRACE = Duration.ofSeconds(15);

  private final Path dir;
  private final Path data;
  private final int port;
  private final Process process;
  private final long logOffset;
  private final Thread shutdownHook;

  private PostgresServer(Path dir, Path data, int port, Process process, long logOffset) {
    this.dir = dir;
    this.data = data;
    this.port = port;
    this.process = process;
    this.logOffset = logOffset;
    this.shutdownHook = new Thread(() -> stop(Duration.ofSeconds(5)), "tasklane-postgres-reaper");
  }

  /**
   * Starts PostgreSQL controlled from {@code dir} (its cluster initialised on first use, reused
   * afterwards) and blocks until it accepts JDBC connections; a server that fails is stopped again.
   *
   * @throws LocalStackException naming what failed, with the tail of the server's log
   */
  public static PostgresServer start(Path dir, Duration timeout) {
    PostgresBinaries binaries = PostgresBinaries.find();
    PostgresServer server;
    try {
      PostgresDataDir.stopLeftover(dir);
      Files.createDirectories(dir);
      Path home = PostgresDataDir.prepare(binaries, dir);
      server = launch(binaries, dir, home, Ports.pickFree());
    } catch (IOException e) {
      throw new LocalStackException("PostgreSQL could not be started in " + dir + ": " + e, e);
    }
    Runtime.getRuntime().addShutdownHook(server.shutdownHook);
    try {
      server.awaitReady(System.nanoTime() + timeout.toNanos());
      server.createDatabase(DEFAULT_DATABASE, false);
      return server;
    } catch (RuntimeException e) {
      server.stop(Duration.ofSeconds(5));
      throw e;
    }
  }

  private static PostgresServer launch(PostgresBinaries binaries, Path dir, Path home, int port)
      throws IOException {
    Path data = home.resolve("data");
    Files.deleteIfExists(data.resolve("postmaster.pid"));
    List<String> command = PostgresDataDir.asServerUser();
    command.addAll(
        List.of(
            binaries.server().toString(),
            "-D",
            data.toString(),
            "-p",
            Integer.toString(port),
            // TCP only: a Unix socket path under a deep checkout exceeds the 107-byte limit
            "-c",
            "unix_socket_directories=",
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            "wal_level=logical",
            "-c",
            "max_replication_slots=4",
            "-c",
            "max_wal_senders=4",
            "-c",
            "max_connections=200",
            "-c",
            "fsync=off",
            "-c",
            "synchronous_commit=off",
            // With asynchronous commits the WAL writer flushes a commit at most every
            // wal_writer_delay (default 200 ms), and logical decoding sends only flushed WAL: the
            // relay saw each row 0-400 ms late; at 10 ms the wait was still half of the relay hop
            // (p50 about 8 of 16 ms), at 1 ms it is about 1 ms (docs/cdc-relay.md, PostgreSQL)
            "-c",
            "wal_writer_delay=1ms",
            "-c",
            "full_page_writes=off"));
    Path log = dir.resolve("postgres.log");
    long offset = Files.exists(log) ? Files.size(log) : 0;
    Process process =
        new ProcessBuilder(command)
            .directory(home.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    return new PostgresServer(dir, data, port, process, offset);
  }

  /** Waits until the superuser can open a JDBC connection; fails early if the server exits. */
  void awaitReady(long deadlineNanos) {
    SQLException last = null;
    while (true) {
      if (!process.isAlive()) {
        throw failure("postgres exited with code " + process.exitValue() + " during startup", null);
      }
      try (Connection ignored = connect("postgres")) {
        return;
      } catch (SQLException e) {
        last = e;
      }
      if (System.nanoTime() > deadlineNanos) {
        throw failure("postgres did not accept JDBC connections in time", last);
      }
      Processes.pause(50);
    }
  }

  /** Drops (if asked) and creates {@code name}; its owner is the superuser {@link #USER}. */
  public void createDatabase(String name, boolean dropFirst) {
    MariaDbAdmin.checkName("database", name);
    try (Connection c = connect("postgres");
        Statement st = c.createStatement()) {
      if (dropFirst) {
        st.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      } else if (st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'")
          .next()) {
        return;
      }
      st.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new LocalStackException(
          "PostgreSQL: could not create database " + name + " on port " + port + ": " + e, e);
    }
  }

  private Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), USER, PASSWORD);
  }

  /** {@code jdbc:postgresql://127.0.0.1:<port>/<database>}. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?connectTimeout=5";
  }

  LocalStackException failure(String what, Throwable cause) {
    return new LocalStackException(
        "PostgreSQL failed to start: "
            + what
            + " (127.0.0.1:"
            + port
            + ", data dir "
            + data
            + ")\n"
            + Processes.tail(dir.resolve("postgres.log"), logOffset, 30),
        cause);
  }

  public int port() {
    return port;
  }

  public Path dir() {
    return dir;
  }

  /** The cluster ({@code initdb}'s dir), in the server's private dir under the temp dir. */
  public Path dataDir() {
    return data;
  }

  /** Deletes the control dir and the server's own dir; call after {@link #stop}. */
  public void delete() {
    PostgresDataDir.remove(dir);
  }

  /** The postmaster's pid (the server itself, not the {@code runuser} wrapper). */
  public long pid() {
    return postmaster().map(ProcessHandle::pid).orElse(process.pid());
  }

  private Optional<ProcessHandle> postmaster() {
    return Stream.concat(Stream.of(process.toHandle()), process.toHandle().descendants())
        .filter(p -> PostgresDataDir.isPostmaster(p.pid(), data))
        .findFirst();
  }

  /** Fast shutdown (SIGINT), SIGKILL after {@code grace}; blocks until the server is gone. */
  public synchronized void stop(Duration grace) {
    if (Thread.currentThread() != shutdownHook) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException | IllegalArgumentException e) {
        // the JVM is shutting down, or the hook was never registered
      }
    }
    postmaster().ifPresent(p -> PostgresDataDir.stopPostmaster(p, grace));
    Processes.stop(process.toHandle(), Duration.ofSeconds(2));
  }
}
