package io.tasklane.outbox;

import io.tasklane.core.TasklaneException;

/**
 * Root of the exceptions of the outbox library (validation failures of a task are {@link
 * io.tasklane.core.InvalidTaskException}s from core). Unchecked.
 */
public class OutboxException extends TasklaneException {
  private static final long serialVersionUID = 1L;

  public OutboxException(String message) {
    super(message);
  }

  public OutboxException(String message, Throwable cause) {
    super(message, cause);
  }
}
