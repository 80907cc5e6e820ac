package io.tasklane.outbox;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskKey;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.outbox.OutboxBatches;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.outbox.OutboxRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The one implementation: validate everything into rows, then hand them to the sink. */
final class DefaultTaskOutbox implements JdbcTaskOutbox {
  static final int MAX_REASON_CHARS = TaskLimits.MAX_CANCEL_REASON_CHARS;

  private final RowFactory rows;
  private final RowSink sink;

  DefaultTaskOutbox(RowFactory rows, RowSink sink) {
    this.rows = rows;
    this.sink = sink;
  }

  @Override
  public String enqueue(TaskRequest request) {
    OutboxRow row = rows.task(Objects.requireNonNull(request, "request"));
    sink.insert(List.of(row));
    return row.taskId();
  }

  @Override
  public List<String> enqueueAll(List<TaskRequest> requests) {
    Objects.requireNonNull(requests, "requests");
    if (requests.isEmpty()) {
      return List.of();
    }
    List<OutboxRow> batch = new ArrayList<>(requests.size());
    List<String> ids = new ArrayList<>(requests.size());
    for (int i = 0; i < requests.size(); i++) {
      TaskRequest request = requests.get(i);
      if (request == null) {
        throw new InvalidTaskException("requests", "element " + i + " is null");
      }
      try {
        OutboxRow row = rows.task(request);
        batch.add(row);
        ids.add(row.taskId());
      } catch (InvalidTaskException e) {
        String message = e.getMessage().substring(e.field().length() + 2);
        throw new InvalidTaskException(
            e.field(), message + " (request " + i + " of " + requests.size() + ")");
      }
    }
    sink.insert(OutboxBatches.pack(batch, rows.batchRows()));
    return List.copyOf(ids);
  }

  @Override
  public String cancel(String taskId) {
    TaskIds.check("taskId", taskId);
    sink.insert(List.of(rows.cancel(taskId, null, null, null)));
    return taskId;
  }

  @Override
  public String cancel(String taskId, CancelReason reason) {
    TaskIds.check("taskId", taskId);
    String text = reason == null ? null : reason.text();
    if (text != null && text.length() > MAX_REASON_CHARS) {
      throw new InvalidTaskException(
          "reason", "is " + text.length() + " characters; the limit is " + MAX_REASON_CHARS);
    }
    sink.insert(List.of(rows.cancel(taskId, null, null, text)));
    return taskId;
  }

  @Override
  public String cancel(TaskKey task) {
    Objects.requireNonNull(task, "task");
    String taskId = task.taskId();
    sink.insert(List.of(rows.cancel(taskId, task.handler(), task.key(), null)));
    return taskId;
  }

  @Override
  public ScheduleDefinition schedule(ScheduleRequest request) {
    return insertSchedule(rows.schedule(Objects.requireNonNull(request, "request")));
  }

  @Override
  public ScheduleDefinition schedule(ScheduleDefinition definition) {
    return insertSchedule(rows.schedule(Objects.requireNonNull(definition, "definition"), false));
  }

  private ScheduleDefinition insertSchedule(OutboxRow row) {
    sink.insert(List.of(row));
    return OutboxRows.toSchedule(row);
  }

  @Override
  public long unschedule(String name) {
    OutboxRow row = rows.unschedule(name, null);
    sink.insert(List.of(row));
    return OutboxRows.toUnschedule(row).version();
  }

  @Override
  public long unschedule(String name, long version) {
    sink.insert(List.of(rows.unschedule(name, version)));
    return version;
  }

  @Override
  public String toString() {
    return "TaskOutbox[" + sink + "]";
  }
}
