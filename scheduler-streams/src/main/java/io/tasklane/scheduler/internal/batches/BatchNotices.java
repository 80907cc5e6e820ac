package io.tasklane.scheduler.internal.batches;

import io.tasklane.core.BatchMemberDone;
import io.tasklane.core.BatchPart;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.internal.lifecycle.Outputs;
import io.tasklane.scheduler.internal.lifecycle.Transitions;

/**
 * Tells a batch that one of its members reached a terminal state: a {@link BatchMemberDone} on
 * {@code <ns>.tasks} keyed by the batch's key, sent with the commit of the terminal state (the
 * member lives on the partition of its routing key, the batch on the partition of its key). A
 * member that ends again after a retry sends another; the batch counts its latest state. Called on
 * the stream thread of the member's partition.
 */
public final class BatchNotices {
  private BatchNotices() {}

  /** The batches' listener of finished tasks: members of a batch only. */
  public static Transitions.FinishListener listener(Outputs out) {
    return (task, id, state, reason, now, here) -> finished(task, id, state, now, out);
  }

  /**
   * A member refused at admission (it fails validation, so it never becomes a task and never ends):
   * its batch counts it DEAD, so that the batch still completes.
   */
  public static void refused(TaskEnvelope task, long now, Outputs out) {
    if (task.id() != null) {
      finished(task, task.id(), TaskState.DEAD, now, out);
    }
  }

  static void finished(TaskEnvelope task, String id, TaskState state, long now, Outputs out) {
    if (task == null || task.headers() == null || state == null || !state.isTerminal()) {
      return;
    }
    String batch = task.headers().get(ReservedHeaders.BATCH);
    if (batch == null || !BatchPart.ID.matcher(batch).matches()) {
      return;
    }
    out.scheduleRecord(BatchPart.key(batch), BatchMemberDone.of(batch, id, state, now), now);
  }
}
