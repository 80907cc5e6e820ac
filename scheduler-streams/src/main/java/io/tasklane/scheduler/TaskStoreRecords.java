package io.tasklane.scheduler;

import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireFormatException;
import io.tasklane.scheduler.internal.lifecycle.StoredTasks;

/**
 * Reads the values of the scheduler's task store changelog ({@code
 * <application-id>-tasklane-tasks-changelog}), keyed by task id, for tools that inspect it: each
 * value is the scheduler's record of one task, in the binary form of this version or the JSON of
 * 0.1.0 (docs/scheduler-streams.md, *The stored form of a task record*); a null value is a task
 * forgotten. Stateless and thread-safe.
 */
public final class TaskStoreRecords {
  private TaskStoreRecords() {}

  /**
   * The task's envelope, or null for a tombstone and for a record without one (a cancel that came
   * before its task, an awaited placeholder).
   *
   * @throws WireFormatException when the value is not a task record this version reads
   */
  public static TaskEnvelope envelope(byte[] value) {
    return StoredTasks.envelope(value);
  }

  /**
   * The task's state, or null for a tombstone and for a placeholder.
   *
   * @throws WireFormatException when the value is not a task record this version reads
   */
  public static TaskState state(byte[] value) {
    return StoredTasks.state(value);
  }
}
