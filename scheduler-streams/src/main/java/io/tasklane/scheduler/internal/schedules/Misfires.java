package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.MisfirePolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Which fire instants a schedule's timer makes into tasks when it fires at {@code now} for the fire
 * at {@code scheduled} (every fire in {@code [scheduled, now]} is due). A pure function of the
 * policy, the calendar and the two times. A fire is on time when it is late by at most {@code
 * tolerance}, the scheduler's own lag (its tick); only later fires are misfires.
 *
 * <ul>
 *   <li>{@code SKIP}: every due fire that is on time, else none;
 *   <li>{@code FIRE_ONCE}: the latest due fire, however late;
 *   <li>{@code FIRE_ONCE_IF_LATE_BY_AT_MOST(d)}: every due fire late by at most {@code d} (or on
 *       time), each once, at most the {@link #MAX_WITHIN} latest; none when even the latest is
 *       later. A timer found 1.5 s late on a 1-second calendar makes both fires it owes, as XXL-JOB
 *       does within its 5-second threshold, instead of dropping the older one;
 *   <li>{@code FIRE_ALL(max n)}: every due fire, at most the {@code n} latest.
 * </ul>
 *
 * Skipped fires are simply not made; the schedule's next timer is the first fire after {@code now}
 * either way.
 */
final class Misfires {
  /** The most fires a timer makes within a threshold (a 1-second calendar with {@code 1d}). */
  static final int MAX_WITHIN = 1_000;

  private Misfires() {}

  /** The fire instants to make into tasks, oldest first (possibly none). */
  static List<Long> toFire(
      MisfirePolicy policy, Fires fires, long scheduled, long now, long tolerance) {
    long latest = fires.atOrBefore(now);
    if (latest == Fires.NONE || latest < scheduled) {
      return List.of();
    }
    return switch (policy.kind()) {
      case SKIP -> all(fires, Math.max(scheduled, now - tolerance), latest, MAX_WITHIN);
      case FIRE_ONCE -> List.of(latest);
      case FIRE_ONCE_IF_LATE_BY_AT_MOST ->
          all(
              fires,
              Math.max(scheduled, now - Math.max(policy.lateByMs(), tolerance)),
              latest,
              MAX_WITHIN);
      case FIRE_ALL -> all(fires, scheduled, latest, policy.max());
    };
  }

  private static List<Long> all(Fires fires, long scheduled, long latest, int max) {
    List<Long> out = new ArrayList<>();
    long at = latest;
    while (at != Fires.NONE && at >= scheduled && out.size() < max) {
      out.add(at);
      at = at == 0 ? Fires.NONE : fires.atOrBefore(at - 1);
    }
    Collections.reverse(out);
    return out;
  }
}
