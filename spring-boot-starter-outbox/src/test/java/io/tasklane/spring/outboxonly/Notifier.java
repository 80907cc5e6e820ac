package io.tasklane.spring.outboxonly;

import io.tasklane.outbox.OutboxAsync;
import org.springframework.stereotype.Service;

/** An {@code @OutboxAsync} method in an application without a worker: only recorded here. */
@Service
public class Notifier {
  @OutboxAsync
  public void notify(String who) {
    throw new IllegalStateException("recorded, never run in the enqueue-only application");
  }
}
