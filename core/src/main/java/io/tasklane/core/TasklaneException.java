package io.tasklane.core;

/** Root of every exception Tasklane throws. Unchecked; subclasses drive decisions by type. */
public class TasklaneException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TasklaneException(String message) {
    super(message);
  }

  public TasklaneException(String message, Throwable cause) {
    super(message, cause);
  }
}
