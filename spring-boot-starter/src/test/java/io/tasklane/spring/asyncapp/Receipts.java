package io.tasklane.spring.asyncapp;

import io.tasklane.outbox.OutboxAsync;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * After-commit methods: calling {@link #send} records a task; the worker runs it later, in the
 * method's own {@code @Transactional}, where its nested call of {@link #followUp} is recorded.
 */
@Service
public class Receipts {
  private final List<String> sent = new CopyOnWriteArrayList<>();
  private final List<Boolean> sentInTransaction = new CopyOnWriteArrayList<>();

  private final JdbcTemplate jdbc;
  private Receipts self;

  public Receipts(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /** The bean's proxy, so the nested call goes through the advice. */
  @org.springframework.beans.factory.annotation.Autowired
  void setSelf(@org.springframework.context.annotation.Lazy Receipts self) {
    this.self = self;
  }

  @OutboxAsync(key = "receipt-{0}", maxAttempts = 4)
  @Transactional
  public void send(String orderId, int copies) {
    sent.add(orderId + " x" + copies);
    sentInTransaction.add(TransactionSynchronizationManager.isActualTransactionActive());
    jdbc.update("INSERT INTO orders (item) VALUES (?)", "receipt " + orderId + " x" + copies);
    self.followUp(orderId);
  }

  @OutboxAsync(delay = "PT1H")
  public void followUp(String orderId) {
    sent.add("follow-up " + orderId);
  }

  /** What {@link #send} and {@link #followUp} ran with (read through the proxy). */
  public List<String> sent() {
    return sent;
  }

  /** Whether a transaction was active in each run of {@link #send}. */
  public List<Boolean> sentInTransaction() {
    return sentInTransaction;
  }

  /** Not {@code @OutboxAsync}: a task naming it is refused. */
  public void notAsync(String orderId) {
    sent.add("not-async " + orderId);
  }
}
