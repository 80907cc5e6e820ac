package io.tasklane.worker;

import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/** Handlers of {@link GracefulShutdownTest} and {@link KillWorkerMain}. */
final class ShutdownSuite {
  private ShutdownSuite() {}

  /** Writes a row, then works ~100 ms; no idempotency store, so a repeated run would show. */
  @Singleton
  @Requires(property = "test.suite", value = "shutdown")
  static class Steady {
    private final DataSource ds;

    Steady(DataSource ds) {
      this.ds = ds;
    }

    @TaskHandler("steady")
    public void run(String payload, TaskContext ctx) throws Exception {
      try (Connection c = ds.getConnection();
          PreparedStatement ps = c.prepareStatement("INSERT INTO runs (task_id) VALUES (?)")) {
        ps.setString(1, ctx.taskId());
        ps.executeUpdate();
      }
      // the effect is written first: an attempt cut short here would run (and write) again
      new CountDownLatch(1).await(100, TimeUnit.MILLISECONDS);
    }
  }
}
