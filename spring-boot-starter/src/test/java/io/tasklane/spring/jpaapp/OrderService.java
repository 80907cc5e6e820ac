package io.tasklane.spring.jpaapp;

import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Places an order and enqueues its shipping task in one Spring transaction. */
@Service
public class OrderService {
  @PersistenceContext private EntityManager em;
  private final TaskOutbox outbox;

  public OrderService(TaskOutbox outbox) {
    this.outbox = outbox;
  }

  @Transactional
  public String place(String item) {
    em.persist(new PlacedOrder(item));
    return outbox.enqueue(TaskRequest.to("order.ship").payload(item));
  }

  @Transactional
  public void placeThenFail(String item) {
    place(item);
    throw new IllegalStateException("refused after enqueue");
  }
}
