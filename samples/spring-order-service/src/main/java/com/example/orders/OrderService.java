package com.example.orders;

import io.tasklane.core.TaskKey;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Places and pays orders: each method is one transaction, rows and tasks commit together. */
@Service
public class OrderService {
  public static final String CONFIRM = "order.confirm";
  public static final String CANCEL_UNPAID = "order.cancel-unpaid";

  private final OrderRepository orders;
  private final TaskOutbox outbox;
  private final Duration unpaidTimeout;

  public OrderService(
      OrderRepository orders,
      TaskOutbox outbox,
      @Value("${orders.unpaid-timeout:PT30M}") Duration unpaidTimeout) {
    this.orders = orders;
    this.outbox = outbox;
    this.unpaidTimeout = unpaidTimeout;
  }

  @Transactional
  public long place(String customer, long amountCents) {
    long id = orders.save(new CustomerOrder(customer, amountCents)).getId();
    outbox.enqueue(TaskRequest.to(CONFIRM).payload(new OrderRef(id)).key("confirm-" + id));
    outbox.enqueue(
        TaskRequest.to(CANCEL_UNPAID)
            .payload(new OrderRef(id))
            .delay(unpaidTimeout)
            .key("cancel-" + id));
    return id;
  }

  @Transactional
  public boolean pay(long orderId) {
    CustomerOrder order = orders.lockById(orderId).orElse(null);
    if (order == null || !CustomerOrder.CREATED.equals(order.getState())) {
      return false;
    }
    order.setState(CustomerOrder.PAID);
    outbox.cancel(TaskKey.of(CANCEL_UNPAID, "cancel-" + orderId)); // commits with the payment
    return true;
  }

  /** Joins the handler's transaction: the change commits with Tasklane's "processed" mark. */
  @Transactional
  public void recordConfirmation(long orderId) {
    orders.findById(orderId).ifPresent(CustomerOrder::confirmationSent);
  }

  @Transactional
  public void cancelIfUnpaid(long orderId) {
    orders
        .lockById(orderId)
        .filter(o -> CustomerOrder.CREATED.equals(o.getState()))
        .ifPresent(o -> o.setState(CustomerOrder.CANCELLED));
  }

  @Transactional(readOnly = true)
  public long unpaid() {
    return orders.countByState(CustomerOrder.CREATED);
  }
}
