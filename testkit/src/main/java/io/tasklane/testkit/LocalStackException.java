package io.tasklane.testkit;

/**
 * The local stack could not be started, attached or used. The message says which part failed and,
 * for a server that did not come up, ends with the tail of its log.
 */
public class LocalStackException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public LocalStackException(String message) {
    super(message);
  }

  public LocalStackException(String message, Throwable cause) {
    super(message, cause);
  }
}
