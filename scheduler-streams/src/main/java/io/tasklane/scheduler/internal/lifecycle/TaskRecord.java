package io.tasklane.scheduler.internal.lifecycle;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tasklane.core.ErrorInfo;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskState;
import java.util.ArrayList;
import java.util.List;

/**
 * The scheduler's state of one task, the value of {@link Stores#TASKS} (stored by {@link
 * TaskRecordCodec}; shown by the API as JSON). Change it with {@link #edit()}.
 *
 * @param task the envelope; null for a cancel that came before its task, or a placeholder
 * @param state the state; null for a placeholder (a dependency awaited before it arrived)
 * @param attempt the dispatch number of the current or last attempt: the fencing token
 * @param failures failed attempts since admission or the last retry-dead (vs. maxAttempts)
 * @param snoozes RETRY_LATER answers so far (capped)
 * @param dueAt when the task is due next (PENDING, RETRYING, NO_HANDLER)
 * @param deadline the current attempt's deadline (DISPATCHED)
 * @param timerAt the time of this task's one due-index entry, or -1; for a task waiting in its
 *     handler's queue (QUEUED) its place in the queue ({@link QueueRank}), for one waiting in its
 *     lane (LANE) its sequence in the lane
 * @param timerKind the kind of that entry, or null
 * @param lastError the last failure
 * @param reason why the task is DEAD or CANCELLED, in words
 * @param history the last {@link #MAX_HISTORY} attempts
 * @param waitingOn dependency ids not yet succeeded (WAITING)
 * @param waiters tasks waiting for this one
 * @param probes initiators whose cycle probe this WAITING task has forwarded (see {@link
 *     CycleProbes}); cleared when it leaves WAITING
 * @param updatedAt epoch millis of the last change
 * @param finishedAt epoch millis it reached a terminal state, 0 before
 * @param duplicatesRefused records on {@code tasks} with this id and different content that were
 *     refused (the first record of an id wins); identical duplicates are not counted here; absent
 *     from the JSON when 0
 * @param lastRefusedDuplicate the last of those, or null
 * @param waitTimedOutAt epoch millis the task's wait timeout ({@link
 *     io.tasklane.core.TaskOptions#waitTimeoutMs()}) passed before its first dispatch, raising
 *     {@code wait-timeout}; 0 (absent from the JSON) otherwise
 * @param nonce the nonce of the current attempt's dispatch ({@link
 *     io.tasklane.core.Dispatch#nonce}, drawn by {@link DispatchNonces}): a result for that attempt
 *     must carry it; null before the first dispatch and for an attempt a scheduler without nonces
 *     dispatched. Never shown by the API ({@code TaskView})
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record TaskRecord(
    TaskEnvelope task,
    TaskState state,
    int attempt,
    int failures,
    int snoozes,
    long dueAt,
    long deadline,
    long timerAt,
    TimerKind timerKind,
    ErrorInfo lastError,
    String reason,
    List<AttemptEntry> history,
    List<String> waitingOn,
    List<Waiter> waiters,
    List<String> probes,
    long updatedAt,
    long finishedAt,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) int duplicatesRefused,
    RefusedDuplicate lastRefusedDuplicate,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) long waitTimedOutAt,
    String nonce) {

  static final int MAX_HISTORY = 20;

  public TaskRecord {
    history = history == null ? List.of() : List.copyOf(history);
    waitingOn = waitingOn == null ? List.of() : List.copyOf(waitingOn);
    waiters = waiters == null ? List.of() : List.copyOf(waiters);
    probes = probes == null ? List.of() : List.copyOf(probes);
    if (timerKind == null) {
      timerAt = -1;
    }
  }

  /** An empty record (no task, no state) to fill in with {@link #edit()}. */
  static TaskRecord empty() {
    return new TaskRecord(
        null, null, 0, 0, 0, 0, 0, -1, null, null, null, null, null, null, null, 0, 0, 0, null, 0,
        null);
  }

  boolean isPlaceholder() {
    return state == null;
  }

  boolean hasTimer() {
    return timerKind != null;
  }

  Edit edit() {
    return new Edit(this);
  }

  /** Whether {@code r}'s timer is an entry of the due-index. */
  static boolean timerInIndex(TaskRecord r) {
    return r != null && r.hasTimer() && r.timerKind().inDueIndex();
  }

  /**
   * Whether {@code r}'s timer is an attempt's deadline, held in memory ({@link DeadlineTimers}).
   */
  static boolean timerInMemory(TaskRecord r) {
    return r != null && r.timerKind() == TimerKind.DEADLINE;
  }

  /** Whether {@code previous} had a timer entry that {@code next} no longer has. */
  static boolean timerMoved(TaskRecord previous, TaskRecord next) {
    return previous != null
        && previous.hasTimer()
        && (previous.timerAt() != next.timerAt() || previous.timerKind() != next.timerKind());
  }

  /** A mutable copy; {@link #build()} makes the next record. Used on one stream thread only. */
  static final class Edit {
    TaskEnvelope task;
    TaskState state;
    int attempt;
    int failures;
    int snoozes;
    long dueAt;
    long deadline;
    long timerAt;
    TimerKind timerKind;
    ErrorInfo lastError;
    String reason;
    List<AttemptEntry> history;
    List<String> waitingOn;
    List<Waiter> waiters;
    List<String> probes;
    long updatedAt;
    long finishedAt;
    int duplicatesRefused;
    RefusedDuplicate lastRefusedDuplicate;
    long waitTimedOutAt;
    String nonce;

    private Edit(TaskRecord r) {
      task = r.task;
      state = r.state;
      attempt = r.attempt;
      failures = r.failures;
      snoozes = r.snoozes;
      dueAt = r.dueAt;
      deadline = r.deadline;
      timerAt = r.timerAt;
      timerKind = r.timerKind;
      lastError = r.lastError;
      reason = r.reason;
      history = new ArrayList<>(r.history);
      waitingOn = new ArrayList<>(r.waitingOn);
      waiters = new ArrayList<>(r.waiters);
      probes = new ArrayList<>(r.probes);
      updatedAt = r.updatedAt;
      finishedAt = r.finishedAt;
      duplicatesRefused = r.duplicatesRefused;
      lastRefusedDuplicate = r.lastRefusedDuplicate;
      waitTimedOutAt = r.waitTimedOutAt;
      nonce = r.nonce;
    }

    Edit timer(long at, TimerKind kind) {
      timerAt = at;
      timerKind = kind;
      return this;
    }

    Edit noTimer() {
      return timer(-1, null);
    }

    Edit addHistory(AttemptEntry entry) {
      history.add(entry);
      while (history.size() > MAX_HISTORY) {
        history.remove(0);
      }
      return this;
    }

    /** Replaces the newest history entry of {@code attempt}, if it is still there. */
    Edit endAttempt(int n, long at, String outcome, String error, String worker) {
      for (int i = history.size() - 1; i >= 0; i--) {
        if (history.get(i).attempt() == n) {
          history.set(i, history.get(i).ended(at, outcome, error, worker));
          break;
        }
      }
      return this;
    }

    TaskRecord build() {
      return new TaskRecord(
          task,
          state,
          attempt,
          failures,
          snoozes,
          dueAt,
          deadline,
          timerAt,
          timerKind,
          lastError,
          reason,
          history,
          waitingOn,
          waiters,
          probes,
          updatedAt,
          finishedAt,
          duplicatesRefused,
          lastRefusedDuplicate,
          waitTimedOutAt,
          nonce);
    }
  }
}
