package io.tasklane.relay.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election by a PostgreSQL session-level advisory lock ({@code pg_try_advisory_lock}) held
 * on a dedicated connection; the key is derived from the lock name ({@link #keyOf}). The server
 * releases the lock when that connection ends, so a standby polling in {@link #acquire} takes over
 * within one {@code lockWait}. Used by the relay's loop thread only.
 */
final class AdvisoryLock implements LeaderLock {
  private static final Logger LOG = LoggerFactory.getLogger(AdvisoryLock.class);

  private final Jdbc jdbc;
  private final String name;
  private final long key;
  private final Duration wait;
  private Connection connection;

  AdvisoryLock(Jdbc jdbc, String name, Duration wait) {
    this.jdbc = jdbc;
    this.name = name;
    this.key = keyOf(name);
    this.wait = wait;
  }

  /** The advisory lock key of {@code name}: the first 8 bytes of its SHA-256. */
  static long keyOf(String name) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(d).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }

  @Override
  public boolean acquire(BooleanSupplier stop) throws SQLException {
    long pauseMs = Math.max(100, wait.toMillis() / 4);
    while (!stop.getAsBoolean()) {
      if (connection == null || !connection.isValid(2)) {
        closeQuietly();
        connection = jdbc.open();
      }
      try (PreparedStatement ps = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
        ps.setLong(1, key);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next() && rs.getBoolean(1)) {
            LOG.info("acquired leader lock {} (advisory lock {})", name, key);
            return true;
          }
        }
      }
      sleep(pauseMs, stop);
    }
    return false;
  }

  @Override
  public boolean stillHeld() {
    if (connection == null) {
      return false;
    }
    // A bigint key shows in pg_locks as classid (high 32 bits), objid (low 32 bits), objsubid 1.
    try (PreparedStatement ps =
        connection.prepareStatement(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
                + " AND pid = pg_backend_pid() AND objsubid = 1"
                + " AND ((classid::bigint << 32) | objid::bigint) = ?")) {
      ps.setQueryTimeout(5);
      ps.setLong(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getLong(1) > 0;
      }
    } catch (SQLException e) {
      LOG.warn("leader lock connection failed: {}", e.toString());
      return false;
    }
  }

  @Override
  public void close() {
    if (connection != null) {
      try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
        ps.setLong(1, key);
        ps.executeQuery().close();
      } catch (SQLException e) {
        LOG.debug("release of {} failed; closing the connection releases it", name, e);
      }
    }
    closeQuietly();
  }

  private static void sleep(long ms, BooleanSupplier stop) {
    long end = System.nanoTime() + ms * 1_000_000;
    while (!stop.getAsBoolean() && System.nanoTime() < end) {
      try {
        Thread.sleep(Math.min(50, ms));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void closeQuietly() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        LOG.debug("closing lock connection", e);
      }
      connection = null;
    }
  }
}
