package io.tasklane.outbox;

/**
 * What an {@link OutboxAsync} method does when it is called outside a transaction (configuration
 * key {@code tasklane.outbox.async-outside-transaction}).
 */
public enum AsyncOutsideTransaction {
  /** Throw {@link NoActiveTransactionException} (the default): the caller forgot a transaction. */
  REFUSE,
  /** Record the task in a transaction of its own, committed before the method returns. */
  OWN_TRANSACTION
}
