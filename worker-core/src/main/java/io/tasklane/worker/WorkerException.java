package io.tasklane.worker;

import io.tasklane.core.TasklaneException;

/** Root of the worker runtime's exceptions (configuration, start-up, idempotency store). */
public class WorkerException extends TasklaneException {
  private static final long serialVersionUID = 1L;

  public WorkerException(String message) {
    super(message);
  }

  public WorkerException(String message, Throwable cause) {
    super(message, cause);
  }
}
