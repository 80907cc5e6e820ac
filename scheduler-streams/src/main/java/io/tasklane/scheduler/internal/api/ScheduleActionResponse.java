package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/**
 * {@code PUT /api/schedules/{name}}, {@code DELETE /api/schedules/{name}} and {@code POST
 * /api/schedules/{name}/pause} and {@code /resume}: the operation's outcome (schema {@code
 * ScheduleActionResult} in {@code openapi.yml}). {@code applied} or {@code ignored} (HTTP 200)
 * carries the reason; {@code pending} (HTTP 202, the wait passed before the schedule showed the
 * version sent) does not.
 *
 * @param name the schedule
 * @param action {@code define}, {@code pause}, {@code resume} or {@code delete}
 * @param outcome {@code applied}, {@code ignored} or {@code pending}
 * @param settled the reason, written in line; absent while pending
 * @param version the version sent; absent when nothing was sent
 * @param warnings for a definition whose fires end early (never, or before its end): why, with the
 *     last fire; absent when none
 */
public record ScheduleActionResponse(
    String name,
    String action,
    String outcome,
    @JsonUnwrapped Settled settled,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long version,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings) {

  static final String APPLIED = "applied";
  static final String IGNORED = "ignored";
  static final String PENDING = "pending";

  /**
   * The answer {@code outcome} for {@code reason} (not kept while pending); {@code version} below 0
   * when nothing was sent.
   */
  static ScheduleActionResponse of(
      String name, String action, String outcome, String reason, long version) {
    return new ScheduleActionResponse(
        name,
        action,
        outcome,
        PENDING.equals(outcome) ? null : new Settled(reason),
        version >= 0 ? version : null,
        List.of());
  }

  /** This answer with {@code list} as its warnings. */
  ScheduleActionResponse withWarnings(List<String> list) {
    return new ScheduleActionResponse(name, action, outcome, settled, version, List.copyOf(list));
  }

  /** The HTTP status of this answer: 202 while pending, else 200. */
  int httpStatus() {
    return PENDING.equals(outcome) ? 202 : 200;
  }

  /**
   * What an applied or ignored operation tells besides its outcome.
   *
   * @param reason why it changed nothing (e.g. {@code already paused}), null when applied
   */
  public record Settled(String reason) {}
}
