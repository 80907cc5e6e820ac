package io.tasklane.relay.internal;

import io.tasklane.relay.RelayException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The relay group's PostgreSQL logical replication slot as the server reports it ({@code
 * pg_replication_slots}, {@code pg_settings}): read, drop, and the outbox rows a re-read would
 * relay. Each call opens its own short connection (autocommit, no transaction held). Thread-safe:
 * the slot guard's thread and the leader loop thread both use it.
 */
final class ReplicationSlot {
  private static final String READ =
      "SELECT active, wal_status, safe_wal_size,"
          + " CASE WHEN restart_lsn IS NULL THEN NULL"
          + " ELSE pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint END"
          + " FROM pg_replication_slots WHERE slot_name = ?";

  private final Jdbc jdbc;
  private final String name;
  private final String table;
  private final Clock clock;

  ReplicationSlot(Jdbc jdbc, String name, String qualifiedTable, Clock clock) {
    this.jdbc = jdbc;
    this.name = name;
    this.table = qualifiedTable;
    this.clock = clock;
  }

  String name() {
    return name;
  }

  /**
   * One reading of the slot.
   *
   * @param exists false when the server has no slot of this name
   * @param active true while a walsender (the leader's connector) streams from it
   * @param walStatus {@code reserved}, {@code extended}, {@code unreserved} or {@code lost}; null
   *     when missing
   * @param retainedBytes WAL the server keeps for the slot ({@code pg_current_wal_lsn() -
   *     restart_lsn}), -1 when unknown
   * @param safeWalSizeBytes WAL that can still be written before the slot is lost, -1 when the keep
   *     size is unlimited or unknown
   * @param keepSizeBytes {@code max_slot_wal_keep_size}, -1 when unlimited
   * @param at when it was read
   */
  record State(
      boolean exists,
      boolean active,
      String walStatus,
      long retainedBytes,
      long safeWalSizeBytes,
      long keepSizeBytes,
      Instant at) {

    /** The server invalidated the slot: the WAL it needed is gone. */
    boolean lost() {
      return exists && "lost".equals(walStatus);
    }

    /** Retained WAL over {@code max_slot_wal_keep_size}; -1 when unlimited or unknown. */
    double usedRatio() {
      return keepSizeBytes <= 0 || retainedBytes < 0
          ? -1
          : (double) retainedBytes / (double) keepSizeBytes;
    }
  }

  State read() throws SQLException {
    try (Connection c = jdbc.open()) {
      long keep = keepSizeBytes(c);
      try (PreparedStatement ps = c.prepareStatement(READ)) {
        ps.setQueryTimeout(10);
        ps.setString(1, name);
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            return new State(false, false, null, -1, -1, keep, clock.instant());
          }
          long safe = rs.getLong(3);
          safe = rs.wasNull() ? -1 : safe;
          long retained = rs.getLong(4);
          retained = rs.wasNull() ? -1 : retained;
          return new State(
              true, rs.getBoolean(1), rs.getString(2), retained, safe, keep, clock.instant());
        }
      }
    }
  }

  /** {@code max_slot_wal_keep_size} in bytes (the setting is in MB), -1 when unlimited. */
  private static long keepSizeBytes(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT setting::bigint, unit FROM pg_settings"
                    + " WHERE name = 'max_slot_wal_keep_size'")) {
      if (!rs.next() || rs.getLong(1) < 0) {
        return -1;
      }
      long v = rs.getLong(1);
      return switch (String.valueOf(rs.getString(2))) {
        case "MB" -> v * 1024 * 1024;
        case "kB" -> v * 1024;
        default -> v;
      };
    }
  }

  /**
   * Drops the slot once no walsender uses it (the previous leader's connection may take a moment to
   * end after it lost the lock).
   *
   * @throws RelayException when it stays active for {@code wait}
   */
  void drop(Duration wait) throws SQLException {
    long deadline = System.nanoTime() + wait.toNanos();
    try (Connection c = jdbc.open();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                    + " WHERE slot_name = ? AND NOT active")) {
      ps.setString(1, name);
      while (true) {
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            return;
          }
        }
        if (System.nanoTime() > deadline) {
          throw new RelayException(
              "replication slot " + name + " is still in use after " + wait + "; cannot drop it");
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new RelayException("interrupted while dropping replication slot " + name, e);
        }
      }
    }
  }

  /** Rows in the outbox table now: what a re-read relays (again). */
  long outboxRows() throws SQLException {
    try (Connection c = jdbc.open();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
