package io.tasklane.scheduler.internal.schedules;

import io.tasklane.core.MisfirePolicy;
import io.tasklane.core.ScheduleDefinition;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fire instants and misfire policies of the schedules fired last, parsed once per definition: a
 * state kept in memory keeps its definition's instance from fire to fire, so a schedule that fires
 * often does not parse its cron expression (or rate) and zone at every fire. A new definition of
 * the name parses again. Holds as many as the stream task keeps states in memory ({@link
 * ScheduleStore#RECENT_STATES}). One instance per {@link ScheduleMachine}, on its stream thread.
 */
final class ParsedFires {
  private static final class Parsed {
    final ScheduleDefinition definition;
    final Fires fires;
    MisfirePolicy misfire;

    Parsed(ScheduleDefinition definition, Fires fires) {
      this.definition = definition;
      this.fires = fires;
    }
  }

  private final Map<String, Parsed> parsed =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Parsed> eldest) {
          return size() > ScheduleStore.RECENT_STATES;
        }
      };

  /** The fire instants of {@code d}. */
  Fires of(ScheduleDefinition d) {
    return parsed(d).fires;
  }

  /** The misfire policy of {@code d} ({@link ScheduleDefinition#misfirePolicy()}), parsed once. */
  MisfirePolicy misfire(ScheduleDefinition d) {
    Parsed p = parsed(d);
    if (p.misfire == null) {
      p.misfire = d.misfirePolicy();
    }
    return p.misfire;
  }

  private Parsed parsed(ScheduleDefinition d) {
    Parsed cached = parsed.get(d.name());
    if (cached != null && cached.definition == d) {
      return cached;
    }
    Parsed p = new Parsed(d, Fires.stored(d));
    parsed.put(d.name(), p);
    return p;
  }
}
