package io.tasklane.examples.orders;

import io.micronaut.transaction.annotation.Transactional;
import io.tasklane.core.TaskKey;
import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import java.time.Clock;
import java.time.Duration;

/**
 * The order service. Each method is one database transaction that writes the business rows and the
 * tasks together: a rollback leaves neither. Called from any thread.
 */
@Singleton
public class OrderService {
  public static final String EMAIL = "email.send";
  public static final String CANCEL_UNPAID = "order.cancel-unpaid";

  private final EntityManager em;
  private final TaskOutbox outbox;
  private final Clock clock;
  private final OrderAudit audit;

  public OrderService(EntityManager em, TaskOutbox outbox, OrderAudit audit) {
    this.em = em;
    this.outbox = outbox;
    this.audit = audit;
    this.clock = Clock.systemUTC();
  }

  /** Creates an order, its confirmation e-mail and its auto-cancel task, in one transaction. */
  @Transactional
  public long create(Duration unpaidTimeout) {
    long now = clock.millis();
    DemoOrder order = new DemoOrder(now, now + unpaidTimeout.toMillis());
    em.persist(order);
    em.flush();
    long id = order.getId();
    outbox.enqueue(TaskRequest.to(EMAIL).payload(new OrderRef(id)).key("email-" + id));
    outbox.enqueue(
        TaskRequest.to(CANCEL_UNPAID)
            .payload(new OrderRef(id))
            .delay(unpaidTimeout)
            .key("cancel-" + id)
            .maxAttempts(5));
    audit.orderCreated(id); // recorded now, run by a worker after the commit
    return id;
  }

  /**
   * Pays an order still CREATED and cancels its auto-cancel task in the same transaction.
   *
   * @return false when the order was already cancelled (the customer was too late)
   */
  @Transactional
  public boolean pay(long orderId) {
    DemoOrder order = em.find(DemoOrder.class, orderId, LockModeType.PESSIMISTIC_WRITE);
    if (order == null || !DemoOrder.CREATED.equals(order.getState())) {
      return false;
    }
    order.setState(DemoOrder.PAID);
    outbox.cancel(TaskKey.of(CANCEL_UNPAID, "cancel-" + orderId));
    return true;
  }
}
