package io.tasklane.core;

/** What one attempt of a handler came to. */
public enum Outcome {
  /** The handler returned. */
  SUCCEEDED,
  /** The handler threw something else, or timed out: retried with backoff. */
  FAILED,
  /** The handler asked to run again later; does not use up an attempt (a snooze). */
  RETRY_LATER,
  /** The handler said retrying is pointless: the task goes DEAD at once. */
  PERMANENT_FAILURE,
  /**
   * The task was cancelled while this attempt ran and the worker interrupted the handler ({@code
   * <ns>.interrupts}); recorded in the task's history, the task stays CANCELLED.
   */
  CANCELLED
}
