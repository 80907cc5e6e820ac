package io.tasklane.spring.asyncapp;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Inserts an order and calls an {@code @OutboxAsync} method in the same transaction. */
@Service
public class Checkout {
  private final JdbcTemplate jdbc;
  private final Receipts receipts;

  public Checkout(JdbcTemplate jdbc, Receipts receipts) {
    this.jdbc = jdbc;
    this.receipts = receipts;
  }

  @Transactional
  public void checkout(String orderId) {
    jdbc.update("INSERT INTO orders (item) VALUES (?)", orderId);
    receipts.send(orderId, 2);
  }

  @Transactional
  public void checkoutThenFail(String orderId) {
    checkout(orderId);
    throw new IllegalStateException("refused after the call");
  }
}
