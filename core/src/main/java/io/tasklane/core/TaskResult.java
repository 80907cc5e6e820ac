package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The outcome of one attempt, sent by a worker to {@code tasklane.results} keyed by the routing key
 * of the dispatch. A result whose {@code attempt} is not the task's current attempt is ignored by
 * the scheduler (fencing). A result for the current attempt must also carry the {@code nonce} of
 * that attempt's {@link Dispatch} and the task's {@code handler} ({@link #answering}); otherwise
 * the scheduler dead-letters it without touching the task.
 *
 * @param v wire version
 * @param id task id
 * @param attempt the attempt this result answers
 * @param outcome what happened
 * @param error the failure, null on success
 * @param retryAfterMs for {@link Outcome#RETRY_LATER}: the delay the handler asked for, or null
 * @param startedAt epoch millis the handler started
 * @param finishedAt epoch millis the handler finished
 * @param worker a name of the worker instance
 * @param handler the handler that ran the attempt (the worker's, which is the dispatch's); null
 *     from a worker that predates it
 * @param nonce the {@link Dispatch#nonce()} of the dispatch this result answers; null when that
 *     dispatch had none or from a worker that predates it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskResult(
    @JsonProperty(required = true) int v,
    String id,
    int attempt,
    Outcome outcome,
    ErrorInfo error,
    Long retryAfterMs,
    long startedAt,
    long finishedAt,
    String worker,
    String handler,
    String nonce)
    implements Versioned {

  /** A result bound to no dispatch ({@link #answering} binds it). */
  public TaskResult(
      int v,
      String id,
      int attempt,
      Outcome outcome,
      ErrorInfo error,
      Long retryAfterMs,
      long startedAt,
      long finishedAt,
      String worker) {
    this(v, id, attempt, outcome, error, retryAfterMs, startedAt, finishedAt, worker, null, null);
  }

  /**
   * This result bound to {@code dispatch}: its handler and nonce, as the worker that ran it sends
   * it.
   */
  public TaskResult answering(Dispatch dispatch) {
    return new TaskResult(
        v,
        id,
        attempt,
        outcome,
        error,
        retryAfterMs,
        startedAt,
        finishedAt,
        worker,
        dispatch.task() == null ? null : dispatch.task().handler(),
        dispatch.nonce());
  }

  public static TaskResult succeeded(
      String id, int attempt, long startedAt, long finishedAt, String worker) {
    return new TaskResult(
        Wire.VERSION, id, attempt, Outcome.SUCCEEDED, null, null, startedAt, finishedAt, worker);
  }

  public static TaskResult failed(
      String id,
      int attempt,
      Outcome outcome,
      ErrorInfo error,
      Long retryAfterMs,
      long startedAt,
      long finishedAt,
      String worker) {
    return new TaskResult(
        Wire.VERSION, id, attempt, outcome, error, retryAfterMs, startedAt, finishedAt, worker);
  }
}
