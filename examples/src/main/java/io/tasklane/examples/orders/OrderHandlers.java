package io.tasklane.examples.orders;

import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;

/**
 * The order handlers. Each writes its effect through {@link TaskContext#inTransaction}, so the
 * effect and the "processed" mark commit together: a redelivered task never writes twice.
 */
@Singleton
public class OrderHandlers {

  /** Sends the order confirmation (here: records that it was sent). */
  @TaskHandler(OrderService.EMAIL)
  public void sendEmail(OrderRef ref, TaskContext ctx) throws Exception {
    long started = System.currentTimeMillis();
    ctx.inTransaction(
        c -> {
          Effects.record(c, ctx, OrderService.EMAIL, ref.orderId(), started);
          return null;
        });
  }

  /** Cancels the order if it is still unpaid; a paid order is left alone. */
  @TaskHandler(OrderService.CANCEL_UNPAID)
  public void cancelUnpaid(OrderRef ref, TaskContext ctx) throws Exception {
    long started = System.currentTimeMillis();
    ctx.inTransaction(
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE demo_orders SET state='CANCELLED' WHERE id=? AND state='CREATED'")) {
            ps.setLong(1, ref.orderId());
            if (ps.executeUpdate() == 1) {
              ctx.log().info("order " + ref.orderId() + " cancelled: unpaid");
              Effects.record(c, ctx, OrderService.CANCEL_UNPAID, ref.orderId(), started);
            }
          }
          return null;
        });
  }
}
