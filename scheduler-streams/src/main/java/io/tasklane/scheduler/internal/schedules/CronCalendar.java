package io.tasklane.scheduler.internal.schedules;

import com.cronutils.model.Cron;
import com.cronutils.model.field.CronFieldName;
import com.cronutils.model.time.ExecutionTime;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Optional;

/**
 * The fire instants of one cron expression read in one zone, without a window. Fires are found on
 * the local calendar, then placed in the zone:
 *
 * <ul>
 *   <li>a local time that does not exist (spring forward) fires once, at the first instant after
 *       the gap (02:30 on the day Berlin skips 02:00–03:00 fires at 03:00 CEST);
 *   <li>a local time that occurs twice (fall back) fires at both occurrences when the hour field is
 *       a wildcard or a step ({@code *}, {@code *}{@code /n}, {@code a/n}), so a frequent schedule
 *       keeps its period in real time through the repeated hour; with fixed hours it fires once, at
 *       its first occurrence (a daily 02:30 fires once).
 * </ul>
 *
 * <p>Pure and immutable; called on the stream threads and the HTTP threads alike.
 */
final class CronCalendar {
  private static final int MAX_STEPS = 10_000;

  private final ExecutionTime cron;
  private final ZoneId zone;
  private final ZoneRules rules;
  private final boolean everyHour;

  CronCalendar(Cron cron, ZoneId zone) {
    this.cron = ExecutionTime.forCron(cron);
    this.zone = zone;
    this.rules = zone.getRules();
    String hours = cron.retrieve(CronFieldName.HOUR).getExpression().asString();
    this.everyHour = hours.contains("*") || hours.contains("/");
  }

  /** Whether a repeated local time fires at both occurrences (the hour is a wildcard or a step). */
  boolean firesRepeatedTimesTwice() {
    return everyHour;
  }

  /** The first fire strictly after {@code t}, or {@link Fires#NONE}. */
  long after(long t) {
    long next = Fires.NONE;
    LocalDateTime local = LocalDateTime.ofInstant(Instant.ofEpochMilli(t), zone);
    for (int i = 0; i < MAX_STEPS && next == Fires.NONE; i++) {
      Optional<LocalDateTime> candidate = nextLocal(local);
      if (candidate.isEmpty()) {
        break;
      }
      next = placeAfter(candidate.get(), t);
      local = candidate.get();
    }
    ZoneOffsetTransition back = everyHour ? rules.nextTransition(Instant.ofEpochMilli(t)) : null;
    if (back != null
        && back.isOverlap()
        && (next == Fires.NONE || back.getInstant().toEpochMilli() < next)) {
      // the clock goes back before the next fire: the repeated local times come again
      Optional<LocalDateTime> again = nextLocal(back.getDateTimeAfter().minusSeconds(1));
      if (again.isPresent()) {
        long at = again.get().toInstant(back.getOffsetAfter()).toEpochMilli();
        next = next == Fires.NONE ? at : Math.min(next, at);
      }
    }
    return next;
  }

  /** The last fire at or before {@code t}, or {@link Fires#NONE}. */
  long atOrBefore(long t) {
    Instant at = Instant.ofEpochMilli(t);
    LocalDateTime local = LocalDateTime.ofInstant(at, zone);
    long last = lastPlaced(local, t);
    ZoneOffsetTransition back = rules.previousTransition(at.plusMillis(1));
    if (back != null && back.isOverlap() && local.isBefore(back.getDateTimeBefore())) {
      // in the repeated local times: the fires of their first occurrence are before t too
      LocalDateTime shown = back.getDateTimeBefore().minus(1, ChronoUnit.MILLIS);
      last = Math.max(last, lastPlaced(shown, t));
    }
    return last;
  }

  /** The latest fire with a local time at or before {@code upTo} and an instant at or before t. */
  private long lastPlaced(LocalDateTime upTo, long t) {
    ZonedDateTime probe =
        upTo.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1).atZone(ZoneOffset.UTC);
    for (int i = 0; i < MAX_STEPS; i++) {
      Optional<ZonedDateTime> last = cron.lastExecution(probe);
      if (last.isEmpty()) {
        return Fires.NONE;
      }
      LocalDateTime candidate = last.get().toLocalDateTime();
      long at = placeAtOrBefore(candidate, t);
      if (!candidate.isAfter(upTo) && at != Fires.NONE) {
        return at;
      }
      probe = last.get();
    }
    return Fires.NONE;
  }

  /** The cron's next local time strictly after {@code local}. */
  private Optional<LocalDateTime> nextLocal(LocalDateTime local) {
    return cron.nextExecution(local.atZone(ZoneOffset.UTC)).map(ZonedDateTime::toLocalDateTime);
  }

  /** The earliest instant of {@code local} that fires and is after {@code t}, or NONE. */
  private long placeAfter(LocalDateTime local, long t) {
    List<ZoneOffset> offsets = rules.getValidOffsets(local);
    if (offsets.isEmpty()) {
      long at = rules.getTransition(local).getInstant().toEpochMilli();
      return at > t ? at : Fires.NONE;
    }
    for (ZoneOffset offset : everyHour ? offsets : offsets.subList(0, 1)) {
      long at = local.toInstant(offset).toEpochMilli();
      if (at > t) {
        return at;
      }
    }
    return Fires.NONE;
  }

  /** The latest instant of {@code local} that fires and is at or before {@code t}, or NONE. */
  private long placeAtOrBefore(LocalDateTime local, long t) {
    List<ZoneOffset> offsets = rules.getValidOffsets(local);
    if (offsets.isEmpty()) {
      long at = rules.getTransition(local).getInstant().toEpochMilli();
      return at <= t ? at : Fires.NONE;
    }
    long found = Fires.NONE;
    for (ZoneOffset offset : everyHour ? offsets : offsets.subList(0, 1)) {
      long at = local.toInstant(offset).toEpochMilli();
      if (at <= t) {
        found = Math.max(found, at);
      }
    }
    return found;
  }
}
