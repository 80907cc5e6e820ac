package io.tasklane.worker;

/**
 * The task's id is already in the idempotency store: an earlier delivery committed its effects.
 * Thrown by {@link TaskContext#inTransaction} (after rolling back); the worker reports the attempt
 * as SUCCEEDED.
 */
public class AlreadyProcessedException extends WorkerException {
  private static final long serialVersionUID = 1L;

  private final String taskId;

  public AlreadyProcessedException(String taskId) {
    super("task " + taskId + " was already processed");
    this.taskId = taskId;
  }

  public String taskId() {
    return taskId;
  }
}
