package io.tasklane.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;

/**
 * The benchmark's exactly-once handler: writes one row per task into {@value #TABLE} in the same
 * transaction as the worker's idempotency mark ({@link TaskContext#inTransaction}), the way most
 * users deploy a handler whose effect is in their database. Called on the worker's handler pool
 * threads; the transaction is the idempotency store's.
 */
@Singleton
public class EffectHandler {
  /** The handler name of the idempotent throughput measure. */
  public static final String NAME = "effect";

  /** The table of the effects: one row per task id, so that a second effect of a task fails. */
  public static final String TABLE = "bench_effects";

  @TaskHandler(NAME)
  public void run(JsonNode payload, TaskContext ctx) throws Exception {
    ctx.inTransaction(
        c -> {
          try (PreparedStatement s =
              c.prepareStatement("INSERT INTO " + TABLE + " (task_id, done_at) VALUES (?, ?)")) {
            s.setString(1, ctx.taskId());
            s.setLong(2, System.currentTimeMillis());
            s.executeUpdate();
          }
          return null;
        });
  }
}
