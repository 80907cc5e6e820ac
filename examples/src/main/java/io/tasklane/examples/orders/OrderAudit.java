package io.tasklane.examples.orders;

import io.micronaut.transaction.annotation.Transactional;
import io.tasklane.outbox.OutboxAsync;
import io.tasklane.outbox.OutboxSchema;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.PreparedStatement;
import org.hibernate.Session;

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
    long now = System.currentTimeMillis();
    em.unwrap(Session.class)
        .doWork(
            c -> {
              try (PreparedStatement ps = c.prepareStatement(insertOnce(c))) {
                ps.setLong(1, orderId);
                ps.setLong(2, now);
                ps.executeUpdate();
              }
            });
  }

  /** An insert that does nothing when the order's audit row exists, in the database's dialect. */
  private static String insertOnce(Connection c) {
    return OutboxSchema.Dialect.of(c) == OutboxSchema.Dialect.POSTGRESQL
        ? "INSERT INTO demo_audit (order_id, recorded_at) VALUES (?, ?) ON CONFLICT DO NOTHING"
        : "INSERT IGNORE INTO demo_audit (order_id, recorded_at) VALUES (?, ?)";
  }
}
