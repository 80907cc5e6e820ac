package io.tasklane.scheduler.internal.schedules;

import com.cronutils.model.Cron;
import io.tasklane.core.CronExpressions;
import io.tasklane.core.DurationText;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleDefinition;
import java.time.ZoneId;

/**
 * The fire instants of one schedule definition: its cron expression (read in its zone, placed by
 * {@link CronCalendar}'s daylight-saving rules) or fixed rate, within {@code [startAt, endAt)}.
 * Fixed rates fire at {@code startAt + k × every} (the epoch when there is no {@code startAt}),
 * whatever the zone. Pure and immutable; a new instance per definition, used on the stream thread
 * that owns the schedule or on an HTTP thread (the preview, the status).
 */
public final class Fires {
  /** No such fire. */
  public static final long NONE = -1;

  /** How far {@link #lastBeforeEnd} looks: 2200-01-01T00:00Z. */
  static final long FAR = 7_258_118_400_000L;

  private static final int MAX_STEPS_TO_END = 1_000;

  private final CronCalendar cron;
  private final long everyMs;
  private final long start;
  private final long end;

  /**
   * The fires of a definition being defined: its cron is read by {@link CronExpressions#parse}.
   *
   * @throws InvalidTaskException naming {@code cron}, {@code every} or {@code zone} when they do
   *     not parse
   */
  public Fires(ScheduleDefinition d) {
    this(d, false);
  }

  /**
   * The fires of a definition already stored: its cron is read as when it was accepted ({@link
   * CronExpressions#parseStored}), so a schedule defined before a stricter rule keeps firing.
   */
  public static Fires stored(ScheduleDefinition d) {
    return new Fires(d, true);
  }

  private Fires(ScheduleDefinition d, boolean stored) {
    ZoneId zone = ZoneId.of(d.zone());
    this.start = d.startAt() == null ? 0 : d.startAt();
    this.end = d.endAt() == null ? Long.MAX_VALUE : d.endAt();
    if (d.cron() != null) {
      Cron parsed =
          stored ? CronExpressions.parseStored(d.cron()) : CronExpressions.parse(d.cron());
      this.cron = new CronCalendar(parsed, zone);
      this.everyMs = 0;
    } else {
      this.cron = null;
      this.everyMs = DurationText.parse("every", d.every());
    }
  }

  /** The first fire strictly after {@code t}, or {@link #NONE}. */
  public long after(long t) {
    long from = Math.max(t, start - 1);
    long next = cron == null ? rateAfter(from) : cron.after(from);
    return next == NONE || next >= end ? NONE : next;
  }

  /** The last fire at or before {@code t}, or {@link #NONE}. */
  long atOrBefore(long t) {
    long upTo = Math.min(t, end - 1);
    if (upTo < start) {
      return NONE;
    }
    long last = cron == null ? rateAtOrBefore(upTo) : cron.atOrBefore(upTo);
    return last < start ? NONE : last;
  }

  /**
   * The last fire when the cron's calendar has none after it while the window goes on (no {@code
   * endAt}, or a later one), looked for up to the year 2200; else (also when the last fire is not
   * found within 1,000 fires of the library's answer) {@link #NONE}. Quartz-form (6- and 7-field)
   * fires are computed up to the end of 2099; a year field or 29 February end sooner.
   */
  long lastBeforeEnd() {
    if (cron == null) {
      return NONE;
    }
    long last = atOrBefore(Math.min(end - 1, FAR));
    // the library's search backwards can stop short of the last fire: step forward to it
    for (int i = 0; last != NONE && i < MAX_STEPS_TO_END; i++) {
      long next = cron.after(last);
      if (next == NONE) {
        return last;
      }
      if (next >= end) {
        return NONE;
      }
      last = next;
    }
    return NONE;
  }

  private long rateAfter(long t) {
    long anchor = start;
    if (t < anchor) {
      return anchor;
    }
    return anchor + ((t - anchor) / everyMs + 1) * everyMs;
  }

  private long rateAtOrBefore(long t) {
    return start + ((t - start) / everyMs) * everyMs;
  }
}
