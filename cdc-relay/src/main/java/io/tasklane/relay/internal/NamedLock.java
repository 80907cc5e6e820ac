package io.tasklane.relay.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election by a MySQL/MariaDB named lock ({@code GET_LOCK}) held on a dedicated connection.
 * The server releases the lock when that connection dies (process killed, network lost), so a
 * standby blocked in {@link #acquire} takes over. Used by the relay's loop thread only.
 */
final class NamedLock implements LeaderLock {
  private static final Logger LOG = LoggerFactory.getLogger(NamedLock.class);

  private final Jdbc jdbc;
  private final String name;
  private final Duration wait;
  private Connection connection;

  NamedLock(Jdbc jdbc, String name, Duration wait) {
    this.jdbc = jdbc;
    this.name = name;
    this.wait = wait;
  }

  @Override
  public boolean acquire(BooleanSupplier stop) throws SQLException {
    while (!stop.getAsBoolean()) {
      if (connection == null || !connection.isValid(2)) {
        closeQuietly();
        connection = jdbc.open();
      }
      try (PreparedStatement ps = connection.prepareStatement("SELECT GET_LOCK(?, ?)")) {
        ps.setString(1, name);
        ps.setLong(2, Math.max(1, wait.toSeconds()));
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next() && rs.getInt(1) == 1 && !rs.wasNull()) {
            LOG.info("acquired leader lock {}", name);
            return true;
          }
        }
      }
    }
    return false;
  }

  @Override
  public boolean stillHeld() {
    if (connection == null) {
      return false;
    }
    try (PreparedStatement ps =
        connection.prepareStatement("SELECT IS_USED_LOCK(?) = CONNECTION_ID()")) {
      ps.setQueryTimeout(5);
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getInt(1) == 1;
      }
    } catch (SQLException e) {
      LOG.warn("leader lock connection failed: {}", e.toString());
      return false;
    }
  }

  /** Releases the lock (closing the connection releases it too). */
  @Override
  public void close() {
    if (connection != null) {
      try (PreparedStatement ps = connection.prepareStatement("SELECT RELEASE_LOCK(?)")) {
        ps.setString(1, name);
        ps.executeQuery().close();
      } catch (SQLException e) {
        LOG.debug("release of {} failed; closing the connection releases it", name, e);
      }
    }
    closeQuietly();
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
