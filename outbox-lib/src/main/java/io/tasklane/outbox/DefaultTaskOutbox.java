package io.tasklane.outbox;

import io.tasklane.core.BatchPart;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskIds;
import io.tasklane.core.TaskKey;
import io.tasklane.core.TaskLimits;
import io.tasklane.core.outbox.OutboxBatches;
import io.tasklane.core.outbox.OutboxRow;
import io.tasklane.core.outbox.OutboxRows;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The one implementation: validate everything into rows, then hand them to the sink; tasks with a
 * unique window are written only when their claim wins ({@link UniqueWindows}).
 */
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
    return enqueueWithResult(request).taskId();
  }

  @Override
  public EnqueueResult enqueueWithResult(TaskRequest request) {
    Objects.requireNonNull(request, "request");
    OutboxRow row = rows.task(request);
    return write(List.of(row), Collections.singletonList(rows.claim(request, row))).get(0);
  }

  @Override
  public List<String> enqueueAll(List<TaskRequest> requests) {
    return enqueueAll(requests, null).stream().map(EnqueueResult::taskId).toList();
  }

  @Override
  public TaskBatch batch(String batchId) {
    return new TaskBatch(BatchPart.checkId(batchId), this);
  }

  /**
   * The members {@code requests} of {@code batch}: their rows, then one part row per {@link
   * BatchPart#MAX_MEMBERS} tasks written (a request refused by its unique window adds none).
   */
  List<String> enqueueMembers(String batch, List<TaskRequest> requests) {
    List<EnqueueResult> results = enqueueAll(requests, batch);
    List<String> written =
        results.stream().filter(r -> !r.duplicate()).map(EnqueueResult::taskId).toList();
    List<OutboxRow> parts = new ArrayList<>();
    for (int from = 0; from < written.size(); from += BatchPart.MAX_MEMBERS) {
      List<String> members =
          written.subList(from, Math.min(written.size(), from + BatchPart.MAX_MEMBERS));
      parts.add(rows.batchPart(batch, members, false, null, null));
    }
    if (!parts.isEmpty()) {
      sink.insert(parts);
    }
    return results.stream().map(EnqueueResult::taskId).toList();
  }

  /** The seal of {@code batch} with its callbacks (either may be null). */
  void seal(String batch, TaskRequest onSuccess, TaskRequest onComplete) {
    sink.insert(List.of(rows.batchPart(batch, List.of(), true, onSuccess, onComplete)));
  }

  private List<EnqueueResult> enqueueAll(List<TaskRequest> requests, String batch) {
    Objects.requireNonNull(requests, "requests");
    if (requests.isEmpty()) {
      return List.of();
    }
    List<OutboxRow> written = new ArrayList<>(requests.size());
    List<UniqueWindows.Claim> claims = new ArrayList<>(requests.size());
    for (int i = 0; i < requests.size(); i++) {
      TaskRequest request = requests.get(i);
      if (request == null) {
        throw new InvalidTaskException("requests", "element " + i + " is null");
      }
      try {
        OutboxRow row = rows.task(request, batch);
        written.add(row);
        claims.add(rows.claim(request, row));
      } catch (InvalidTaskException e) {
        String message = e.getMessage().substring(e.field().length() + 2);
        throw new InvalidTaskException(
            e.field(), message + " (request " + i + " of " + requests.size() + ")");
      }
    }
    return write(written, claims);
  }

  /**
   * Writes {@code tasks} in one sink call: first the claims (a null claim: no window), then the
   * rows of the tasks not refused as duplicates, packed into batch rows as configured.
   */
  private List<EnqueueResult> write(List<OutboxRow> tasks, List<UniqueWindows.Claim> claims) {
    if (claims.stream().allMatch(Objects::isNull)) {
      sink.insert(OutboxBatches.pack(tasks, rows.batchRows()));
      return tasks.stream().map(r -> EnqueueResult.written(r.taskId())).toList();
    }
    return sink.write(
        tx -> {
          List<UniqueWindows.Outcome> outcomes =
              tx.claim(claims.stream().filter(Objects::nonNull).toList());
          List<EnqueueResult> results = new ArrayList<>(tasks.size());
          List<OutboxRow> kept = new ArrayList<>(tasks.size());
          int next = 0;
          for (int i = 0; i < tasks.size(); i++) {
            OutboxRow row = tasks.get(i);
            if (claims.get(i) == null) {
              kept.add(row);
              results.add(EnqueueResult.written(row.taskId()));
              continue;
            }
            UniqueWindows.Outcome o = outcomes.get(next++);
            if (o.won()) {
              kept.add(row);
            }
            results.add(
                new EnqueueResult(o.taskId(), !o.won(), Instant.ofEpochMilli(o.expiresAt())));
          }
          if (!kept.isEmpty()) {
            tx.insert(OutboxBatches.pack(kept, rows.batchRows()));
          }
          return List.copyOf(results);
        });
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
