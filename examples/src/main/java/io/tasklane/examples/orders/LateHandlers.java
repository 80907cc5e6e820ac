package io.tasklane.examples.orders;

import io.micronaut.context.annotation.Requires;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import jakarta.inject.Singleton;

/**
 * A handler deployed late: its tasks are enqueued before any worker has it, wait in the scheduler
 * as NO_HANDLER, and run once a worker with {@code demo.late-handler.enabled=true} starts and
 * creates the topic.
 */
@Singleton
@Requires(property = LateHandlers.ENABLED, value = "true")
public class LateHandlers {
  public static final String ENABLED = "demo.late-handler.enabled";
  public static final String AUDIT = "audit.late";

  @TaskHandler(AUDIT)
  public void audit(OrderRef ref, TaskContext ctx) throws Exception {
    long started = System.currentTimeMillis();
    ctx.inTransaction(
        c -> {
          Effects.record(c, ctx, AUDIT, ref.orderId(), started);
          return null;
        });
  }
}
