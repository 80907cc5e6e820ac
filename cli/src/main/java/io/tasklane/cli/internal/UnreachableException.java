package io.tasklane.cli.internal;

/**
 * The endpoint (or Kafka broker) could not be reached: no connection, a timeout, an unknown host.
 * {@code tasklane} prints the message on stderr and exits 3.
 */
public final class UnreachableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UnreachableException(String message, Throwable cause) {
    super(message, cause);
  }
}
