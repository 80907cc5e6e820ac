package io.tasklane.examples.orders;

import io.micronaut.transaction.annotation.Transactional;
import io.tasklane.outbox.OutboxAsync;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManager;

/**
 * An after-commit method: {@link OrderService#create} calls {@link #orderCreated} inside its
 * transaction, which only records the call in the outbox; a worker runs the method after the
 * commit, in a transaction of its own. Method calls are at-least-once, so the audit row has the
 * order id as its key.
 */
@Singleton
public class OrderAudit {
  private final EntityManager em;

  public OrderAudit(EntityManager em) {
    this.em = em;
  }

  @OutboxAsync
  @Transactional
  public void orderCreated(long orderId) {
    em.createNativeQuery("INSERT IGNORE INTO demo_audit (order_id, recorded_at) VALUES (?1, ?2)")
        .setParameter(1, orderId)
        .setParameter(2, System.currentTimeMillis())
        .executeUpdate();
  }
}
