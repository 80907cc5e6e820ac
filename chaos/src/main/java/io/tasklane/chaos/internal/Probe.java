package io.tasklane.chaos.internal;

import io.tasklane.harness.Database;
import io.tasklane.outbox.JdbcTaskOutbox;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures recovery: commits one probe task (retrying while the database is down) and waits until
 * its effect row appears. Runs on the calling thread (the chaos thread or a probe thread); polls
 * every 100 ms, after 5 s every second (many probes waiting behind a backlog would otherwise take
 * CPU from the pipeline they measure).
 */
public final class Probe {
  private final Database db;
  private final Ledger ledger;
  private final AtomicLong next = new AtomicLong(1);

  public Probe(Database db, Ledger ledger) {
    this.db = db;
    this.ledger = ledger;
  }

  /**
   * Commits a probe and waits for its effect.
   *
   * @param since when the fault began ({@link System#nanoTime()})
   * @return seconds from {@code since} until the effect was visible, or -1 on timeout
   */
  public double await(long since, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String id = null;
    while (id == null && System.nanoTime() < deadline) {
      try (Connection c = db.connect()) {
        c.setAutoCommit(false);
        String candidate = JdbcTaskOutbox.of(c).enqueue(Mix.probe(next.getAndIncrement()));
        try {
          c.commit();
          id = candidate;
          ledger.committed(List.of(id));
        } catch (SQLException e) {
          ledger.ambiguous(List.of(candidate));
        }
      } catch (SQLException | RuntimeException e) {
        TimeUnit.MILLISECONDS.sleep(500);
      }
    }
    long committedAt = System.nanoTime();
    Connection poll = null;
    try {
      while (id != null && System.nanoTime() < deadline) {
        try {
          if (poll == null) {
            poll = db.connect(); // one connection per waiting probe, auto-commit: sees new rows
          }
          if (hasEffect(poll, id)) {
            return (System.nanoTime() - since) / 1e9;
          }
        } catch (SQLException e) {
          close(poll); // MariaDB restarted: reconnect on the next round
          poll = null;
        }
        boolean longWait = System.nanoTime() - committedAt > TimeUnit.SECONDS.toNanos(5);
        TimeUnit.MILLISECONDS.sleep(longWait ? 1000 : 100);
      }
      return -1;
    } finally {
      close(poll);
    }
  }

  private static boolean hasEffect(Connection c, String id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM demo_effects WHERE task_id=?")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static void close(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // already broken
      }
    }
  }
}
