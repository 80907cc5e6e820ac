package io.tasklane.outbox.micronaut;

import io.tasklane.outbox.OutboxAsync;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An after-commit method: callers record it; only a worker's execution runs the body. */
@Singleton
public class Receipts {
  public record Receipt(long amountCents, List<String> lines) {}

  final List<String> sent = new CopyOnWriteArrayList<>();

  @OutboxAsync(key = "receipt-{0}", delay = "PT1M", maxAttempts = 3, timeout = "PT30S")
  public void send(String orderId, Receipt receipt) {
    sent.add(orderId + ":" + receipt.amountCents());
  }

  @OutboxAsync(handler = "mail.bulk")
  public void broadcast(int campaign) {
    sent.add("campaign-" + campaign);
  }

  @OutboxAsync
  public String notVoid() {
    return "never";
  }
}
