package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.scheduler.internal.schedules.SchedulePreview;
import java.util.List;

/**
 * {@code GET /api/schedules/preview}: the next fires of a cron or a fixed rate in a zone, by the
 * scheduler's own rules ({@link SchedulePreview}); a bad field is {@link Invalid}.
 *
 * @param valid always true
 * @param cron the cron as read; absent for a rate
 * @param every the rate as read; absent for a cron
 * @param zone the zone
 * @param nextFires the next fires, fewer when the trigger ends
 * @param warnings why the fires end early; absent when they do not
 */
public record SchedulePreviewResponse(
    boolean valid,
    @JsonInclude(JsonInclude.Include.NON_NULL) String cron,
    @JsonInclude(JsonInclude.Include.NON_NULL) String every,
    String zone,
    List<Fire> nextFires,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings) {

  static SchedulePreviewResponse of(SchedulePreview.Result r) {
    return new SchedulePreviewResponse(
        true,
        r.cron(),
        r.every(),
        r.zone(),
        r.nextFires().stream().map(Fire::of).toList(),
        List.copyOf(r.warnings()));
  }

  /**
   * One coming fire.
   *
   * @param at the instant, epoch millis
   * @param atIso the same in ISO-8601 UTC
   * @param local the local date-time and offset it has in the zone
   */
  public record Fire(long at, String atIso, String local) {
    static Fire of(SchedulePreview.Fire f) {
      return new Fire(f.at(), f.atIso(), f.local());
    }
  }

  /**
   * The 400 answer to a bad field: the {@link ErrorResponse} fields with {@code valid: false} and
   * the field named.
   *
   * @param valid always false
   * @param error always {@code invalid}
   * @param field {@code cron}, {@code every}, {@code zone} or {@code count}
   * @param message what is wrong with it
   */
  public record Invalid(boolean valid, String error, String field, String message) {
    static Invalid of(InvalidTaskException e) {
      return new Invalid(false, "invalid", e.field(), e.getMessage());
    }
  }
}
