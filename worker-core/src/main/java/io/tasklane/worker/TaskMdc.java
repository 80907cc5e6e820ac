package io.tasklane.worker;

/**
 * The SLF4J MDC keys the worker sets on the handler's thread while a handler runs, and removes when
 * it returns or throws: a log pattern such as {@code %X{tasklane.task.id}} names the task of every
 * line the handler (or a library it calls) logs.
 */
public final class TaskMdc {
  /** The task's id. */
  public static final String TASK_ID = "tasklane.task.id";

  /** The handler's name. */
  public static final String HANDLER = "tasklane.handler";

  /** The attempt number, 1 for the first. */
  public static final String ATTEMPT = "tasklane.attempt";

  private TaskMdc() {}
}
