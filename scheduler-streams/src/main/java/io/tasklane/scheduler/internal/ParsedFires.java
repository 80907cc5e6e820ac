package io.tasklane.scheduler.internal;

import io.tasklane.core.ScheduleDefinition;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fire instants of the schedules fired last, parsed once per definition: a state kept in memory
 * keeps its definition's instance from fire to fire, so a schedule that fires often does not parse
 * its cron expression (or rate) and zone at every fire. A new definition of the name parses again.
 * Holds as many as the stream task keeps states in memory ({@link ScheduleStore#RECENT_STATES}).
 * One instance per {@link ScheduleMachine}, on its stream thread.
 */
final class ParsedFires {
  private record Parsed(ScheduleDefinition definition, Fires fires) {}

  private final Map<String, Parsed> parsed =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Parsed> eldest) {
          return size() > ScheduleStore.RECENT_STATES;
        }
      };

  /** The fire instants of {@code d}. */
  Fires of(ScheduleDefinition d) {
    Parsed cached = parsed.get(d.name());
    if (cached != null && cached.definition() == d) {
      return cached.fires();
    }
    Fires fires = new Fires(d);
    parsed.put(d.name(), new Parsed(d, fires));
    return fires;
  }
}
