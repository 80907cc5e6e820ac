package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One attempt of a task, sent by the scheduler to {@code tasklane.handler.<handler>} keyed by the
 * task id. The worker answers with a {@link TaskResult} carrying the same {@code attempt} and keyed
 * by {@code routingKey}.
 *
 * @param v wire version
 * @param task the task
 * @param attempt 1-based attempt number; results for other attempts are ignored (fencing)
 * @param deadline epoch millis after which the scheduler counts the attempt as failed
 * @param routingKey the key the result must carry
 * @param dispatchedAt epoch millis when the scheduler emitted this attempt
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Dispatch(
    @JsonProperty(required = true) int v,
    TaskEnvelope task,
    int attempt,
    long deadline,
    String routingKey,
    long dispatchedAt)
    implements Versioned {

  public static Dispatch of(TaskEnvelope task, int attempt, long deadline, long dispatchedAt) {
    return new Dispatch(Wire.VERSION, task, attempt, deadline, task.routingKey(), dispatchedAt);
  }

  public String id() {
    return task.id();
  }
}
