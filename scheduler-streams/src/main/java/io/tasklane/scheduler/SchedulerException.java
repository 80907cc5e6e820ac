package io.tasklane.scheduler;

import io.tasklane.core.TasklaneException;

/** Root of the scheduler's exceptions: bad configuration, topics that do not fit, start-up. */
public class SchedulerException extends TasklaneException {
  private static final long serialVersionUID = 1L;

  public SchedulerException(String message) {
    super(message);
  }

  public SchedulerException(String message, Throwable cause) {
    super(message, cause);
  }
}
