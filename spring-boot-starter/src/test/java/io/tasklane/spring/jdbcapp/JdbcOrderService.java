package io.tasklane.spring.jdbcapp;

import io.tasklane.outbox.TaskOutbox;
import io.tasklane.outbox.TaskRequest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Inserts an order with JdbcTemplate and enqueues its task in the same transaction. */
@Service
public class JdbcOrderService {
  private final JdbcTemplate jdbc;
  private final TaskOutbox outbox;

  public JdbcOrderService(JdbcTemplate jdbc, TaskOutbox outbox) {
    this.jdbc = jdbc;
    this.outbox = outbox;
  }

  @Transactional
  public String place(String item) {
    jdbc.update("INSERT INTO orders (item) VALUES (?)", item);
    return outbox.enqueue(TaskRequest.to("order.ship").payload(item));
  }

  @Transactional
  public void placeThenFail(String item) {
    place(item);
    throw new IllegalStateException("refused after enqueue");
  }
}
