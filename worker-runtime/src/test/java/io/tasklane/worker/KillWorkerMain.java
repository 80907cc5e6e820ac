package io.tasklane.worker;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * A worker JVM for {@link KillNineTest}; configured by system properties. In phase 1 the handler
 * hangs inside (mode before-commit) or after (mode after-commit) its transaction, to be killed.
 */
public final class KillWorkerMain {
  private KillWorkerMain() {}

  public static void main(String[] args) throws Exception {
    ApplicationContext ctx = ApplicationContext.run();
    Runtime.getRuntime().addShutdownHook(new Thread(ctx::close));
    System.out.println("worker ready");
    new CountDownLatch(1).await();
  }

  @Singleton
  @Requires(property = "test.suite", value = "kill")
  static class Crashy {
    private final DataSource ds;
    private final int phase;

    Crashy(DataSource ds, @Value("${test.phase}") int phase) {
      this.ds = ds;
      this.phase = phase;
    }

    @TaskHandler("crashy")
    public void run(Map<String, String> payload, TaskContext ctx) throws Exception {
      String mode = payload.get("mode");
      try (Connection c = ds.getConnection();
          PreparedStatement ps =
              c.prepareStatement("INSERT INTO attempts (task_id, phase) VALUES (?, ?)")) {
        ps.setString(1, ctx.taskId());
        ps.setInt(2, phase);
        ps.executeUpdate();
      }
      ctx.inTransaction(
          c -> {
            try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO effects (task_id) VALUES (?)")) {
              ps.setString(1, ctx.taskId());
              ps.executeUpdate();
            }
            if (phase == 1 && "before-commit".equals(mode)) {
              hang();
            }
            return null;
          });
      if (phase == 1 && "after-commit".equals(mode)) {
        hang();
      }
    }

    private static void hang() throws InterruptedException {
      new CountDownLatch(1).await(300, TimeUnit.SECONDS);
    }
  }
}
