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
  CANCELLED,
  /**
   * The worker did not start the attempt: it carried a rate-limit slot that had passed by more than
   * its {@link Dispatch#slotTolerance} when the worker could start it (a dispatch redelivered after
   * a worker crash, a worker whose threads were all busy or that was starved of CPU), so starting
   * it then could crowd the limit's next slots. The scheduler asks the limit for a new slot; does
   * not use up an attempt. Sent only in answer to a dispatch with a {@code slotTolerance}.
   */
  SLOT_MISSED
}
