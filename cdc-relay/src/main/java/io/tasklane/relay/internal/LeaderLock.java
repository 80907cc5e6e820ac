package io.tasklane.relay.internal;

import io.tasklane.relay.RelayConfig;
import java.sql.SQLException;
import java.util.function.BooleanSupplier;

/**
 * Leader election among the relays of one database: a server-side lock held on a dedicated
 * connection, released by the server when that connection dies, so a standby takes over. {@link
 * NamedLock} on MariaDB/MySQL, {@link AdvisoryLock} on PostgreSQL. Used by the relay's loop thread
 * only.
 */
interface LeaderLock extends AutoCloseable {

  /** The lock of {@code config}'s database: named lock or advisory lock, by the JDBC URL. */
  static LeaderLock of(RelayConfig config, Jdbc jdbc) {
    return config.postgres()
        ? new AdvisoryLock(jdbc, config.lockName(), config.lockWait())
        : new NamedLock(jdbc, config.lockName(), config.lockWait());
  }

  /**
   * Blocks until this instance holds the lock (true) or {@code stop} turns true (false).
   *
   * @throws SQLException when the database cannot be reached; the caller backs off and retries
   */
  boolean acquire(BooleanSupplier stop) throws SQLException;

  /** True while the lock connection is alive and still owns the lock. */
  boolean stillHeld();

  /** Releases the lock (closing the connection releases it too). */
  @Override
  void close();
}
