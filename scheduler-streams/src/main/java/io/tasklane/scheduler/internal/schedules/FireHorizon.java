package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.ScheduleDefinition;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * The warnings a definition gets when its fires end early: it never fires from now on (a 30
 * February, a past year field, a window already over), or its cron's fires end before its {@code
 * endAt} (or with none): {@code 0 0 0 29 2 ?} last fires in 2096, because Quartz-form (6- and
 * 7-field) fires are computed up to the end of 2099. A schedule whose fires go on into 2099 is not
 * warned about. The definition is accepted either way: a warning, not a refusal. Pure; called on
 * the HTTP blocking executor's threads (define and preview).
 */
public final class FireHorizon {
  /** Fires that end before this instant (2099-01-01T00:00Z) end early. */
  static final long LAST_YEAR = 4_070_908_800_000L;

  private FireHorizon() {}

  /** The warnings of definition {@code d} with fires {@code fires} at {@code now}; often none. */
  public static List<String> warnings(ScheduleDefinition d, Fires fires, long now) {
    List<String> out = new ArrayList<>(1);
    String trigger = d.cron() != null ? "cron: '" + d.cron() + "'" : "every: '" + d.every() + "'";
    String end = d.endAt() == null ? "it has no endAt" : "its endAt is " + iso(d.endAt());
    if (fires.after(now) == Fires.NONE) {
      out.add(
          trigger
              + " has no fire after now in "
              + d.zone()
              + (d.endAt() == null ? "" : " before its endAt " + iso(d.endAt()))
              + ": the schedule is defined but never fires");
      return out;
    }
    long last = fires.lastBeforeEnd();
    if (last != Fires.NONE && last < LAST_YEAR) {
      out.add(
          trigger
              + " fires for the last time at "
              + Instant.ofEpochMilli(last).atZone(ZoneId.of(d.zone())).toOffsetDateTime()
              + " ("
              + iso(last)
              + ") and never after, though "
              + end
              + " (Quartz-form fires are computed up to the end of 2099)");
    }
    return out;
  }

  private static String iso(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).toString();
  }
}
