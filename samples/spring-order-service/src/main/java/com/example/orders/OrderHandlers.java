package com.example.orders;

import io.tasklane.worker.Recurring;
import io.tasklane.worker.TaskContext;
import io.tasklane.worker.TaskHandler;
import org.springframework.stereotype.Component;

/** The order tasks. Each effect and Tasklane's "processed" mark commit together. */
@Component
public class OrderHandlers {
  private final OrderService orders;

  public OrderHandlers(OrderService orders) {
    this.orders = orders;
  }

  @TaskHandler(OrderService.CONFIRM)
  public void confirm(OrderRef ref, TaskContext ctx) throws Exception {
    ctx.log().info("sending the confirmation of order {}", ref.orderId());
    ctx.inTransaction(
        c -> {
          orders.recordConfirmation(ref.orderId()); // once, even if the task is delivered twice
          return null;
        });
  }

  @TaskHandler(OrderService.CANCEL_UNPAID)
  public void cancelUnpaid(OrderRef ref, TaskContext ctx) throws Exception {
    ctx.inTransaction(
        c -> {
          orders.cancelIfUnpaid(ref.orderId());
          return null;
        });
  }

  @TaskHandler("orders.unpaid-report")
  @Recurring(name = "orders.unpaid-report", cron = "0 * * * *")
  public void unpaidReport(Object payload, TaskContext ctx) {
    ctx.log().info("{} orders are waiting for payment", orders.unpaid());
  }
}
