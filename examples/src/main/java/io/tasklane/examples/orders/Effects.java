package io.tasklane.examples.orders;

import io.tasklane.worker.TaskContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Writes one effect row in the handler's transaction (the one that also marks the task done). */
public final class Effects {
  private Effects() {}

  public static void record(Connection c, TaskContext ctx, String kind, long ref, long startedAt)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO demo_effects (task_id, kind, ref, attempt, started_at) VALUES (?,?,?,?,?)")) {
      ps.setString(1, ctx.taskId());
      ps.setString(2, kind);
      ps.setLong(3, ref);
      ps.setInt(4, ctx.attempt());
      ps.setLong(5, startedAt);
      ps.executeUpdate();
    }
  }
}
