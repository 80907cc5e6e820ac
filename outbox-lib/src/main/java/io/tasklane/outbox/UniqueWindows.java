package io.tasklane.outbox;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.TaskIds;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The unique windows of keyed tasks in {@code tasklane_unique}: one row per {@code (handler, key)}
 * (primary key {@code key_id}, the pair's {@link TaskIds#forKey} id, so the key compares byte for
 * byte after Unicode NFC, whatever the column collation) naming the task that holds the window and
 * when the window ends.
 *
 * <p>{@link #claim} runs on the caller's thread, on the connection of the caller's transaction: an
 * upsert that inserts the row, or replaces it when its window has ended, and otherwise leaves it
 * locked as it is; then a locking read of the row. A concurrent transaction claiming the same key
 * blocks on the row lock until the first commits (it then finds the first task) or rolls back (it
 * then inserts its own): never two tasks. Claims of one call are taken in {@code key_id} order, so
 * two calls claiming the same keys do not deadlock each other. Under REPEATABLE READ on PostgreSQL
 * a row committed after the transaction's snapshot fails the statement with a serialization error
 * (retry the transaction); InnoDB's locking reads see the latest committed row at any isolation
 * level.
 */
final class UniqueWindows {
  /** The shortest window. */
  static final Duration MIN_WINDOW = Duration.ofSeconds(1);

  /** The longest window. */
  static final Duration MAX_WINDOW = Duration.ofDays(366);

  private static final String MARIADB_UPSERT =
      "INSERT INTO "
          + OutboxSchema.UNIQUE_TABLE
          + " (key_id, handler, unique_key, task_id, expires_at) VALUES (?, ?, ?, ?, ?)"
          + " ON DUPLICATE KEY UPDATE task_id = IF(expires_at <= ?, ?, task_id),"
          + " expires_at = IF(expires_at <= ?, ?, expires_at)";

  private static final String POSTGRESQL_UPSERT =
      "INSERT INTO "
          + OutboxSchema.UNIQUE_TABLE
          + " AS u (key_id, handler, unique_key, task_id, expires_at) VALUES (?, ?, ?, ?, ?)"
          + " ON CONFLICT (key_id) DO UPDATE SET task_id = EXCLUDED.task_id,"
          + " expires_at = EXCLUDED.expires_at WHERE u.expires_at <= ?";

  private static final String READ =
      "SELECT task_id, expires_at FROM "
          + OutboxSchema.UNIQUE_TABLE
          + " WHERE key_id = ? FOR UPDATE";

  private UniqueWindows() {}

  /**
   * The window of task {@code taskId} of {@code handler} and {@code key}, claimed at {@code now}
   * until {@code expiresAt} (epoch millis).
   */
  record Claim(String handler, String key, String taskId, long now, long expiresAt) {
    String keyId() {
      return TaskIds.forKey(handler, key);
    }
  }

  /** The task holding a claimed window and its end: the claim's own task when {@code won}. */
  record Outcome(String taskId, long expiresAt, boolean won) {}

  /**
   * Returns {@code window}, or throws {@link InvalidTaskException} naming {@code unique} when it is
   * outside {@link #MIN_WINDOW} to {@link #MAX_WINDOW}.
   */
  static Duration checkWindow(Duration window) {
    if (window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
      throw new InvalidTaskException(
          "unique", "window " + window + " is outside 1 s to 366 d (PT1S to PT8784H)");
    }
    return window;
  }

  /**
   * Claims each window on {@code connection}, in the caller's transaction; returns the outcomes in
   * the order of {@code claims}.
   *
   * @throws OutboxException when a statement fails (the table is missing, a deadlock, a
   *     serialization failure): roll the transaction back
   */
  static List<Outcome> claim(Connection connection, List<Claim> claims) {
    Outcome[] outcomes = new Outcome[claims.size()];
    Integer[] order = new Integer[claims.size()];
    String[] keyIds = new String[claims.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      keyIds[i] = claims.get(i).keyId();
    }
    Arrays.sort(order, Comparator.comparing(i -> keyIds[i]));
    boolean postgres = OutboxSchema.Dialect.of(connection) == OutboxSchema.Dialect.POSTGRESQL;
    try (PreparedStatement upsert =
            connection.prepareStatement(postgres ? POSTGRESQL_UPSERT : MARIADB_UPSERT);
        PreparedStatement read = connection.prepareStatement(READ)) {
      for (int i : order) {
        Claim c = claims.get(i);
        bindUpsert(upsert, keyIds[i], c, postgres);
        upsert.executeUpdate();
        read.setString(1, keyIds[i]);
        try (ResultSet rs = read.executeQuery()) {
          if (!rs.next()) {
            throw new OutboxException(
                "the row of key " + keyIds[i] + " vanished from " + OutboxSchema.UNIQUE_TABLE);
          }
          String holder = rs.getString(1);
          outcomes[i] = new Outcome(holder, rs.getLong(2), holder.equals(c.taskId()));
        }
      }
    } catch (SQLException e) {
      throw new OutboxException(
          "could not claim "
              + claims.size()
              + " unique window(s) in "
              + OutboxSchema.UNIQUE_TABLE
              + " (created by OutboxSchema.create or migration V3): "
              + e,
          e);
    }
    return new ArrayList<>(Arrays.asList(outcomes));
  }

  private static void bindUpsert(PreparedStatement ps, String keyId, Claim c, boolean postgres)
      throws SQLException {
    ps.setString(1, keyId);
    ps.setString(2, c.handler());
    ps.setString(3, c.key());
    ps.setString(4, c.taskId());
    ps.setLong(5, c.expiresAt());
    ps.setLong(6, c.now());
    if (!postgres) {
      ps.setString(7, c.taskId());
      ps.setLong(8, c.now());
      ps.setLong(9, c.expiresAt());
    }
  }
}
