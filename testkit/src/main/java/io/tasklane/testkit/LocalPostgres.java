package io.tasklane.testkit;

import io.tasklane.testkit.internal.PostgresServer;
import io.tasklane.testkit.internal.PostgresSupport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A private PostgreSQL server (Debian's binaries, {@code wal_level=logical}) on a free port of
 * 127.0.0.1, started on demand by {@link LocalStack#postgres()} and owned by the JVM that started
 * it: {@link #close()} (called by {@link LocalStack#close()}, also of an attached stack) or, at the
 * latest, a JVM shutdown hook stops it. Superuser {@code tasklane}, trust authentication.
 *
 * <p>Thread-safety: accessors and {@link #createDatabase} may be called from any thread; {@link
 * #close} is idempotent and blocks until the server is gone.
 */
public final class LocalPostgres implements AutoCloseable {

  private final PostgresServer server;
  private final AtomicBoolean closed = new AtomicBoolean();

  private LocalPostgres(PostgresServer server) {
    this.server = server;
  }

  /**
   * Starts a server controlled from {@code dir} (its logs, and the record of its cluster, which
   * {@code initdb} makes on first use in a private dir under the temp dir that the server's OS user
   * can enter wherever {@code dir} lies) and blocks until it accepts JDBC connections. Most tests
   * call {@link LocalStack#postgres()} instead.
   *
   * @throws LocalStackException if the binaries are missing or the server does not come up (with
   *     the tail of its log); whatever was started is stopped
   */
  public static LocalPostgres start(Path dir, Duration timeout) {
    PostgresSupport.reapDeadOwners(dir.toAbsolutePath().normalize().getParent());
    return new LocalPostgres(PostgresServer.start(dir.toAbsolutePath().normalize(), timeout));
  }

  /** {@code jdbc:postgresql://127.0.0.1:<port>/tasklane} (the database created at start). */
  public String jdbcUrl() {
    return server.jdbcUrl(PostgresServer.DEFAULT_DATABASE);
  }

  /** JDBC URL of {@code database} on this server. */
  public String jdbcUrl(String database) {
    return server.jdbcUrl(database);
  }

  /** {@code tasklane}, the superuser (owner of every database this server has). */
  public String username() {
    return PostgresServer.USER;
  }

  /** Any password is accepted (trust authentication); this one is handed to clients. */
  public String password() {
    return PostgresServer.PASSWORD;
  }

  /** Drops (with its connections) and re-creates {@code name} (letters, digits, _). */
  public String createDatabase(String name) {
    server.createDatabase(name, true);
    return jdbcUrl(name);
  }

  public int port() {
    return server.port();
  }

  /** The postmaster's pid. */
  public long pid() {
    return server.pid();
  }

  /** The server's control dir: {@code postgres.log}, {@code initdb.log}, {@code data-dir}. */
  public Path dir() {
    return server.dir();
  }

  /** The cluster: a private dir (mode 0700) under the temp dir, deleted by {@link #close()}. */
  public Path dataDir() {
    return server.dataDir();
  }

  public boolean isClosed() {
    return closed.get();
  }

  /** Fast shutdown (SIGKILL after 15 s), then deletes the server's dir and its cluster. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      server.stop(Duration.ofSeconds(15));
      server.delete();
    }
  }

  @Override
  public String toString() {
    return "LocalPostgres[" + jdbcUrl() + ", dir " + dir() + "]";
  }
}
