package io.tasklane.outbox;

/**
 * An outbox call was made outside a database transaction, so the task could not be tied to the
 * application's data. Nothing was written. Start a transaction first: {@code @Transactional} on the
 * caller, a JPA {@code EntityManager} joined to a transaction, or a JDBC {@code Connection} with
 * auto-commit off.
 */
public class NoActiveTransactionException extends OutboxException {
  private static final long serialVersionUID = 1L;

  /**
   * The most common real cause, added to every message: the annotation looks right but the call
   * never went through the proxy that starts the transaction.
   */
  static final String SELF_INVOCATION_HINT =
      ". If the caller is annotated @Transactional, check that it is not called from another method"
          + " of the same bean (this.method() bypasses the proxy, so no transaction starts): call"
          + " it through the injected bean, or move it to another bean";

  public NoActiveTransactionException(String message) {
    super(message + SELF_INVOCATION_HINT);
  }
}
