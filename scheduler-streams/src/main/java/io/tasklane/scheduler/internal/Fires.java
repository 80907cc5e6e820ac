package io.tasklane.scheduler.internal;

import com.cronutils.model.Cron;
import com.cronutils.model.time.ExecutionTime;
import io.tasklane.core.CronExpressions;
import io.tasklane.core.DurationText;
import io.tasklane.core.InvalidTaskException;
import io.tasklane.core.ScheduleDefinition;
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
 * The fire instants of one schedule definition: its cron expression (read in its zone) or fixed
 * rate, within {@code [startAt, endAt)}. Pure and immutable; a new instance per definition.
 *
 * <p>Cron fires are computed on the local calendar, then placed in the zone: a local time that does
 * not exist (spring forward) fires once at the first instant after the gap (02:30 on the day Berlin
 * skips 02:00–03:00 fires at 03:00 CEST); a local time that occurs twice (fall back) fires once, at
 * its first occurrence. Fixed rates fire at {@code startAt + k × every} (the epoch when there is no
 * {@code startAt}), whatever the zone.
 */
final class Fires {
  /** No such fire. */
  static final long NONE = -1;

  private static final int MAX_STEPS = 10_000;

  private final ExecutionTime cron;
  private final long everyMs;
  private final ZoneId zone;
  private final long start;
  private final long end;

  /**
   * @throws InvalidTaskException naming {@code cron}, {@code every} or {@code zone} when they do
   *     not parse
   */
  Fires(ScheduleDefinition d) {
    this.zone = ZoneId.of(d.zone());
    this.start = d.startAt() == null ? 0 : d.startAt();
    this.end = d.endAt() == null ? Long.MAX_VALUE : d.endAt();
    if (d.cron() != null) {
      this.cron = ExecutionTime.forCron(parse(d.cron()));
      this.everyMs = 0;
    } else {
      this.cron = null;
      this.everyMs = DurationText.parse("every", d.every());
    }
  }

  /** Parses a cron expression by the one rule ({@link CronExpressions}). */
  static Cron parse(String expression) {
    return CronExpressions.parse(expression);
  }

  /** The first fire strictly after {@code t}, or {@link #NONE}. */
  long after(long t) {
    long from = Math.max(t, start - 1);
    long next = cron == null ? rateAfter(from) : cronAfter(from);
    return next == NONE || next >= end ? NONE : next;
  }

  /** The last fire at or before {@code t}, or {@link #NONE}. */
  long atOrBefore(long t) {
    long upTo = Math.min(t, end - 1);
    if (upTo < start) {
      return NONE;
    }
    long last = cron == null ? rateAtOrBefore(upTo) : cronAtOrBefore(upTo);
    return last < start ? NONE : last;
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

  private long cronAfter(long t) {
    LocalDateTime local = LocalDateTime.ofInstant(Instant.ofEpochMilli(t), zone);
    for (int i = 0; i < MAX_STEPS; i++) {
      Optional<ZonedDateTime> next = cron.nextExecution(local.atZone(ZoneOffset.UTC));
      if (next.isEmpty()) {
        return NONE;
      }
      LocalDateTime candidate = next.get().toLocalDateTime();
      long at = instantOf(candidate);
      if (at > t) {
        return at;
      }
      local = candidate;
    }
    return NONE;
  }

  private long cronAtOrBefore(long t) {
    LocalDateTime latest = latestLocalUpTo(t);
    ZonedDateTime probe =
        latest.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1).atZone(ZoneOffset.UTC);
    for (int i = 0; i < MAX_STEPS; i++) {
      Optional<ZonedDateTime> last = cron.lastExecution(probe);
      if (last.isEmpty()) {
        return NONE;
      }
      LocalDateTime candidate = last.get().toLocalDateTime();
      long at = instantOf(candidate);
      if (!candidate.isAfter(latest) && at <= t) {
        return at;
      }
      probe = last.get();
    }
    return NONE;
  }

  /**
   * The latest local time the zone's clock has shown up to {@code t}: its local time, or, in the
   * repeated hour after a fall-back, the last local time shown before the clock went back.
   */
  private LocalDateTime latestLocalUpTo(long t) {
    Instant at = Instant.ofEpochMilli(t);
    LocalDateTime local = LocalDateTime.ofInstant(at, zone);
    ZoneOffsetTransition previous = zone.getRules().previousTransition(at.plusMillis(1));
    if (previous != null && previous.isOverlap()) {
      LocalDateTime before = previous.getDateTimeBefore().minus(1, ChronoUnit.MILLIS);
      if (before.isAfter(local)) {
        return before;
      }
    }
    return local;
  }

  /** A local time placed in the zone: the first occurrence, or the end of a gap it falls into. */
  long instantOf(LocalDateTime local) {
    ZoneRules rules = zone.getRules();
    List<ZoneOffset> offsets = rules.getValidOffsets(local);
    if (offsets.isEmpty()) {
      return rules.getTransition(local).getInstant().toEpochMilli();
    }
    return local.toInstant(offsets.get(0)).toEpochMilli();
  }
}
