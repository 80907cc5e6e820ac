package io.tasklane.outbox.micronaut;

import io.micronaut.transaction.annotation.Transactional;
import io.tasklane.core.TaskKey;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import jakarta.inject.Singleton;
import java.time.Duration;

/** A service using the TaskOutbox bean and the after-commit methods inside @Transactional. */
@Singleton
public class Shop {
  private final TaskOutbox outbox;
  private final Receipts receipts;

  public Shop(TaskOutbox outbox, Receipts receipts) {
    this.outbox = outbox;
    this.receipts = receipts;
  }

  @Transactional
  public String placeOrder(long orderId) {
    return outbox.enqueue(
        TaskRequest.to("order.cancel")
            .payload(orderId)
            .delay(Duration.ofMinutes(30))
            .key("order-" + orderId));
  }

  @Transactional
  public String payOrder(long orderId) {
    return outbox.cancel(TaskKey.of("order.cancel", "order-" + orderId));
  }

  @Transactional
  public void placeOrderThenFail(long orderId) {
    placeOrderInline(orderId);
    receipts.send("o-" + orderId, new Receipts.Receipt(100, java.util.List.of("x")));
    throw new IllegalStateException("payment declined");
  }

  @Transactional
  public void checkout(String orderId, Receipts.Receipt receipt) {
    receipts.send(orderId, receipt);
  }

  @Transactional
  public void enqueueRaw(TaskRequest request) {
    outbox.enqueue(request);
  }

  private void placeOrderInline(long orderId) {
    outbox.enqueue(TaskRequest.to("order.cancel").payload(orderId).key("order-" + orderId));
  }
}
