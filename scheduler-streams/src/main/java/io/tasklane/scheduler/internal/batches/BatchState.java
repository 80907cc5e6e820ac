package io.tasklane.scheduler.internal.batches;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.tasklane.core.BatchCounts;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What the owner partition of a batch keeps of it ({@link BatchBook}): the members' count and their
 * counts by terminal state, the seal with its callbacks' handlers, and when each callback was made.
 * Stored as JSON in {@code tasklane-batches} under {@code s/<id>}; the callbacks' templates are
 * kept apart ({@code c/<id>/<event>}), so that a member's end rewrites a summary of a few hundred
 * bytes whatever the callbacks' payloads. Mutable; used on the owner's stream thread (and decoded
 * fresh for an API read).
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public final class BatchState {
  public String batch;
  public long total;
  public long succeeded;
  public long dead;
  public long cancelled;
  public boolean sealed;
  public long createdAt;
  public Long sealedAt;
  public long updatedAt;

  /** The handler of the {@code onSuccess} callback, or null (its template is kept apart). */
  public String onSuccessHandler;

  /** The handler of the {@code onComplete} callback, or null (its template is kept apart). */
  public String onCompleteHandler;

  /**
   * A callback's template as a summary written before the templates were kept apart holds it (read
   * only; never written now).
   */
  public TaskEnvelope onSuccess;

  public TaskEnvelope onComplete;

  /** When every member was terminal (after the seal), null until then. */
  public Long completedAt;

  /** When every member SUCCEEDED (after the seal), null until then. */
  public Long succeededAt;

  /** The id of the {@code onComplete} task made, or null. */
  public String completeTask;

  /** The id of the {@code onSuccess} task made, or null. */
  public String successTask;

  /**
   * The routing key of the {@code onComplete} task made when it is not its id (a callback with an
   * ordering or concurrency key lives under that key), else null.
   */
  public String completeTaskKey;

  /** The same for the {@code onSuccess} task. */
  public String successTaskKey;

  /** Parts refused because they came after the seal. */
  public long lateParts;

  static BatchState created(String batch, long now) {
    BatchState s = new BatchState();
    s.batch = batch;
    s.createdAt = now;
    s.updatedAt = now;
    return s;
  }

  /** Adds {@code delta} to the count of terminal state {@code state}. */
  void add(TaskState state, int delta) {
    switch (state) {
      case SUCCEEDED -> succeeded += delta;
      case DEAD -> dead += delta;
      case CANCELLED -> cancelled += delta;
      default -> {}
    }
  }

  /** The handler of the {@code onSuccess} callback, or null when the seal named none. */
  public String successHandler() {
    return onSuccessHandler != null
        ? onSuccessHandler
        : onSuccess == null ? null : onSuccess.handler();
  }

  /** The handler of the {@code onComplete} callback, or null when the seal named none. */
  public String completeHandler() {
    return onCompleteHandler != null
        ? onCompleteHandler
        : onComplete == null ? null : onComplete.handler();
  }

  /** Records the {@code onComplete} task made. */
  void completeMade(TaskEnvelope task) {
    completeTask = task.id();
    completeTaskKey = laneKey(task);
  }

  /** Records the {@code onSuccess} task made. */
  void successMade(TaskEnvelope task) {
    successTask = task.id();
    successTaskKey = laneKey(task);
  }

  /** The key a task is found under when it is not its id (its lane's key), else null. */
  private static String laneKey(TaskEnvelope task) {
    return task.routingKey().equals(task.id()) ? null : task.routingKey();
  }

  long terminal() {
    return succeeded + dead + cancelled;
  }

  public BatchCounts counts() {
    return new BatchCounts(batch, total, succeeded, dead, cancelled);
  }

  byte[] encode() {
    try {
      return WireCodec.mapper().writeValueAsBytes(this);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static BatchState decode(byte[] bytes) {
    try {
      return WireCodec.mapper().readValue(bytes, BatchState.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
