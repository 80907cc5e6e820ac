package io.tasklane.worker;

/**
 * Thrown by a handler when retrying is pointless (bad input, entity gone): outcome
 * PERMANENT_FAILURE, the task goes DEAD at once.
 */
public class PermanentTaskException extends WorkerException {
  private static final long serialVersionUID = 1L;

  public PermanentTaskException(String message) {
    super(message);
  }

  public PermanentTaskException(String message, Throwable cause) {
    super(message, cause);
  }
}
