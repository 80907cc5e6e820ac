package io.tasklane.scheduler.internal.api;

import java.time.Instant;
import java.util.Map;

/**
 * {@code GET /api/jobs/{job}} and the answer of a bulk action: one bulk job (schema {@code Job} in
 * {@code openapi.yml}).
 *
 * @param job the job's id
 * @param action the action's path ({@code cancel}, {@code retry-dead}, ...)
 * @param filter the job's filter; a payload filter's value is shown as {@code ***}
 * @param asOf the listing's instant: later tasks are never touched
 * @param asOfIso the same in ISO-8601 UTC
 * @param state {@code RUNNING}, {@code DONE} or {@code FAILED}
 * @param matched tasks the filter matched so far
 * @param applied of those, the action applied
 * @param ignored the action did not apply (the task had moved on)
 * @param failed could not be asked
 * @param startedAt when the job started
 * @param startedAtIso the same in ISO-8601 UTC
 * @param finishedAt when it ended, null while it runs
 * @param finishedAtIso the same in ISO-8601 UTC, null while it runs
 * @param actor the token's name that started it
 * @param error why it failed, null unless {@code FAILED}
 */
public record JobResponse(
    String job,
    String action,
    Map<String, String> filter,
    long asOf,
    String asOfIso,
    String state,
    long matched,
    long applied,
    long ignored,
    long failed,
    long startedAt,
    String startedAtIso,
    Long finishedAt,
    String finishedAtIso,
    String actor,
    String error) {

  /** ISO-8601 UTC of {@code millis}, null when not set (0 or less). */
  static String iso(long millis) {
    return millis > 0 ? Instant.ofEpochMilli(millis).toString() : null;
  }
}
