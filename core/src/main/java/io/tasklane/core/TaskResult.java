package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The outcome of one attempt, sent by a worker to {@code tasklane.results} keyed by the routing key
 * of the dispatch. A result whose {@code attempt} is not the task's current attempt is ignored by
 * the scheduler (fencing).
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
    String worker)
    implements Versioned {

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
