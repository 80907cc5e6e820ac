package io.tasklane.scheduler.internal.lifecycle;

import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;

/**
 * What {@link io.tasklane.scheduler.TaskStoreRecords} reads from a task store value, through {@link
 * TaskRecordCodec}. Stateless.
 */
public final class StoredTasks {
  private StoredTasks() {}

  public static TaskEnvelope envelope(byte[] value) {
    return value == null ? null : TaskRecordCodec.decode(value).task();
  }

  public static TaskState state(byte[] value) {
    return value == null ? null : TaskRecordCodec.decode(value).state();
  }
}
