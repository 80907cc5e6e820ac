package io.tasklane.core;

/** The states of the scheduler's task state machine (see {@code docs/architecture.md}). */
public enum TaskState {
  /** Waiting for its due time in the due-index. */
  PENDING,
  /** Waiting for its {@code dependsOn} tasks to succeed. */
  WAITING,
  /** Due, but no topic exists yet for its handler; dispatched when one appears. */
  NO_HANDLER,
  /** Sent to its handler topic; a result (or its deadline) is awaited. */
  DISPATCHED,
  /** An attempt failed; waiting for the backoff delay before the next one. */
  RETRYING,
  SUCCEEDED,
  /** Permanently failed or out of attempts; a record went to the handler's DLT. */
  DEAD,
  CANCELLED;

  /** True for states no event moves out of, except an operator's retry-dead. */
  public boolean isTerminal() {
    return this == SUCCEEDED || this == DEAD || this == CANCELLED;
  }
}
