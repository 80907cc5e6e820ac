package io.tasklane.relay;

import io.tasklane.core.TasklaneException;

/** Root of every exception the relay throws. Unchecked; subclasses drive decisions by type. */
public class RelayException extends TasklaneException {
  private static final long serialVersionUID = 1L;

  public RelayException(String message) {
    super(message);
  }

  public RelayException(String message, Throwable cause) {
    super(message, cause);
  }
}
