package io.tasklane.outbox;

import java.time.Instant;
import java.util.Objects;

/**
 * What one enqueue did, from {@link TaskOutbox#enqueueWithResult}. Immutable; any thread.
 *
 * @param taskId the id of the task: the new task's, or, for a duplicate, the id of the task of the
 *     same handler and key enqueued earlier within its unique window
 * @param duplicate true when the request's unique window ({@link TaskRequest#unique}) was still
 *     held by an earlier task of the same handler and key: nothing was written. False when the task
 *     was written to the outbox (for a keyed request without a window, the scheduler may still drop
 *     it as a duplicate of an id it knows)
 * @param uniqueUntil when the window ends (the earlier task's window for a duplicate, the new one's
 *     otherwise); null for a request without a unique window
 */
public record EnqueueResult(String taskId, boolean duplicate, Instant uniqueUntil) {

  public EnqueueResult {
    Objects.requireNonNull(taskId, "taskId");
  }

  /** A task written without a unique window. */
  static EnqueueResult written(String taskId) {
    return new EnqueueResult(taskId, false, null);
  }
}
