package io.tasklane.outbox.internal;

import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Internal;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.transaction.TransactionOperations;
import io.micronaut.transaction.TransactionStatus;
import io.tasklane.core.PayloadCodec;
import io.tasklane.outbox.NoActiveTransactionException;
import io.tasklane.outbox.TaskOutbox;
import jakarta.inject.Singleton;
import java.time.Clock;
import org.hibernate.Session;

/**
 * The {@link TaskOutbox} bean: writes through the Hibernate session of Micronaut's current
 * transaction ({@code @io.micronaut.transaction.annotation.Transactional} or {@code
 * jakarta.transaction.Transactional}). A {@link Clock} bean, if any, replaces the system clock; a
 * {@link PayloadCodec} bean, if any, replaces the Jackson default (also for {@code @OutboxAsync}
 * arguments).
 */
@Internal
@Factory
@Requires(classes = {Session.class, TransactionOperations.class})
public class OutboxBeans {

  @Singleton
  TaskOutbox taskOutbox(
      TransactionOperations<Session> transactions,
      OutboxProperties properties,
      @Nullable Clock clock,
      @Nullable PayloadCodec codec) {
    return TaskOutbox.builder()
        .config(properties.toConfig())
        .codec(codec != null ? codec : PayloadCodec.jackson())
        .clock(clock != null ? clock : Clock.systemUTC())
        .jpa(() -> currentSession(transactions));
  }

  static Session currentSession(TransactionOperations<Session> transactions) {
    TransactionStatus<?> status =
        transactions
            .findTransactionStatus()
            .orElseThrow(
                () ->
                    new NoActiveTransactionException(
                        "no Micronaut transaction is active; call the outbox from a method"
                            + " annotated @io.micronaut.transaction.annotation.Transactional (or"
                            + " jakarta.transaction.Transactional)"));
    return (Session) status.getConnection();
  }
}
