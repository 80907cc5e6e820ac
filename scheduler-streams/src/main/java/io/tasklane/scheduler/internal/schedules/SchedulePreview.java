package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleValidator;
import io.tasklane.core.TaskLimits;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * The next fires a schedule trigger ({@code cron} or {@code every}, in {@code zone}) would have
 * from now, computed by the scheduler's own rules: validated by {@link ScheduleValidator} as a
 * definition is, cron parsed by {@link io.tasklane.core.CronExpressions} and fires placed by {@link
 * Fires}, so what {@code GET /api/schedules/preview} shows is what the scheduler will fire. Pure
 * apart from the {@link Clock}; thread-safe (called on the HTTP blocking executor's threads).
 */
public final class SchedulePreview {
  /** How many fires a preview lists by default. */
  static final int DEFAULT_COUNT = 5;

  /** The most fires a preview lists. */
  static final int MAX_COUNT = 50;

  private static final ScheduleValidator VALIDATOR = new ScheduleValidator(TaskLimits.DEFAULT);

  /** One coming fire: the instant and the local date-time it has in the schedule's zone. */
  public record Fire(long at, String atIso, String local) {}

  /**
   * The preview's answer: the trigger as read, its next fires (fewer when the trigger ends) and the
   * warnings of {@link FireHorizon} (when its fires end early).
   */
  public record Result(
      String cron, String every, String zone, List<Fire> nextFires, List<String> warnings) {}

  private final Clock clock;

  public SchedulePreview(Clock clock) {
    this.clock = clock;
  }

  /**
   * The next {@code count} fires strictly after now.
   *
   * @param zone the zone id; null for UTC
   * @param count 1 to {@link #MAX_COUNT}; null for {@link #DEFAULT_COUNT}
   * @throws InvalidTaskException naming {@code cron}, {@code every}, {@code zone} or {@code count}
   */
  public Result preview(String cron, String every, String zone, Integer count) {
    int n = count == null ? DEFAULT_COUNT : count;
    if (n < 1 || n > MAX_COUNT) {
      throw new InvalidTaskException("count", n + " is outside 1 to " + MAX_COUNT);
    }
    ScheduleDefinition d =
        ScheduleDefinition.builder()
            .name("preview")
            .handler("preview")
            .cron(cron)
            .every(every)
            .zone(zone)
            .build();
    VALIDATOR.validate(d, 0);
    Fires fires = new Fires(d);
    ZoneId z = ZoneId.of(d.zone());
    List<Fire> out = new ArrayList<>(n);
    long now = clock.millis();
    long t = fires.after(now);
    while (t != Fires.NONE && out.size() < n) {
      Instant at = Instant.ofEpochMilli(t);
      out.add(new Fire(t, at.toString(), at.atZone(z).toOffsetDateTime().toString()));
      t = fires.after(t);
    }
    return new Result(d.cron(), d.every(), d.zone(), out, FireHorizon.warnings(d, fires, now));
  }
}
