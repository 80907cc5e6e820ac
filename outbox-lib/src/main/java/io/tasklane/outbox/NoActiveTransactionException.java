package io.tasklane.outbox;

/**
 * An outbox call was made outside a database transaction, so the task could not be tied to the
 * application's data. Nothing was written. Start a transaction first: {@code @Transactional} on the
 * caller, a JPA {@code EntityManager} joined to a transaction, or a JDBC {@code Connection} with
 * auto-commit off.
 */
public class NoActiveTransactionException extends OutboxException {
  private static final long serialVersionUID = 1L;

  public NoActiveTransactionException(String message) {
    super(message);
  }
}
