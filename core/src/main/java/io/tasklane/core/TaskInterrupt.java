package io.tasklane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A request to stop one running attempt, sent by the scheduler to {@code <ns>.interrupts} keyed by
 * the task id when it cancels a DISPATCHED task. The worker running exactly this task id and
 * attempt interrupts the handler's thread and answers {@link Outcome#CANCELLED}; every other worker
 * ignores it.
 *
 * @param v wire version
 * @param id task id
 * @param attempt the attempt to stop (other attempts of the task are left alone)
 * @param reason why, e.g. {@code cancelled: paid (by ops-alice)}
 * @param at epoch millis when the scheduler cancelled the task
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskInterrupt(
    @JsonProperty(required = true) int v, String id, int attempt, String reason, long at)
    implements Versioned {

  public static TaskInterrupt of(String id, int attempt, String reason, long at) {
    return new TaskInterrupt(Wire.VERSION, id, attempt, reason, at);
  }
}
