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
 * @param notBefore epoch millis before which the worker must not start the attempt, or null to
 *     start it on receipt: a schedule fire is dispatched up to the scheduler's {@code
 *     schedule-lead} ahead of its instant and held by the worker until then, so that the fires of
 *     one instant do not leave the scheduler one after another at that instant. The scheduler sets
 *     it only for handlers whose live workers all announce {@link WorkerHeartbeat#holdsDispatches}
 *     (a worker that ignores it would start the fire early).
 * @param nonce a random value the scheduler drew for this dispatch (128 bits, base64url) and keeps
 *     with the attempt; the worker echoes it in its {@link TaskResult}, and the scheduler accepts a
 *     result only when it carries the nonce of the task's current dispatch, so that a principal
 *     that cannot read this handler's topic cannot settle its tasks. Null in a dispatch from a
 *     scheduler that predates it, and in the copy of the last dispatch written to a handler's DLT
 * @param slotTolerance when {@code notBefore} is a slot of the task's rate limit
 *     (docs/rate-limits.md): how many milliseconds after it the worker may still start the attempt;
 *     a worker that could only start it later answers {@link Outcome#SLOT_MISSED} instead of
 *     running it, and the scheduler asks for a new slot. Null otherwise, and after a few missed
 *     slots in a row (so a worker whose clock runs ahead does not send a task back for ever)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Dispatch(
    @JsonProperty(required = true) int v,
    TaskEnvelope task,
    int attempt,
    long deadline,
    String routingKey,
    long dispatchedAt,
    Long notBefore,
    String nonce,
    Long slotTolerance)
    implements Versioned {

  /** An attempt without a rate slot. */
  public Dispatch(
      int v,
      TaskEnvelope task,
      int attempt,
      long deadline,
      String routingKey,
      long dispatchedAt,
      Long notBefore,
      String nonce) {
    this(v, task, attempt, deadline, routingKey, dispatchedAt, notBefore, nonce, null);
  }

  /** An attempt without a nonce (a copy for a DLT, or a test). */
  public Dispatch(
      int v,
      TaskEnvelope task,
      int attempt,
      long deadline,
      String routingKey,
      long dispatchedAt,
      Long notBefore) {
    this(v, task, attempt, deadline, routingKey, dispatchedAt, notBefore, null, null);
  }

  /** An attempt to start on receipt. */
  public Dispatch(
      int v, TaskEnvelope task, int attempt, long deadline, String routingKey, long dispatchedAt) {
    this(v, task, attempt, deadline, routingKey, dispatchedAt, null, null, null);
  }

  public static Dispatch of(TaskEnvelope task, int attempt, long deadline, long dispatchedAt) {
    return new Dispatch(Wire.VERSION, task, attempt, deadline, task.routingKey(), dispatchedAt);
  }

  /** This dispatch with {@code nonce}. */
  public Dispatch withNonce(String nonce) {
    return new Dispatch(
        v, task, attempt, deadline, routingKey, dispatchedAt, notBefore, nonce, slotTolerance);
  }

  /**
   * How many milliseconds past its rate slot this attempt is at {@code now} (worker clock), when it
   * carries one and is more than its {@link #slotTolerance} past it; else 0 (start it).
   */
  public long slotMissedBy(long now) {
    if (slotTolerance == null || notBefore == null) {
      return 0;
    }
    long late = now - notBefore;
    return late > slotTolerance ? late : 0;
  }

  public String id() {
    return task.id();
  }
}
