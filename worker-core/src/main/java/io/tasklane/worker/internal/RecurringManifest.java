package io.tasklane.worker.internal;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.Versioned;
import io.tasklane.core.Wire;
import java.util.List;

/**
 * What one worker app last published of its code-defined schedules: the value on the compacted
 * {@code <ns>.recurring} topic keyed by the app ({@code recurring.app}). Each definition is kept as
 * published, version included; one the code no longer has stays here disabled, so it is disabled
 * once, not at every start. Immutable.
 *
 * @param v wire version
 * @param app the worker app ({@code recurring.app})
 * @param build the {@code recurring.build} of the deployment that wrote it (0: none)
 * @param schedules the definitions as published
 */
record RecurringManifest(int v, String app, long build, List<ScheduleDefinition> schedules)
    implements Versioned {

  RecurringManifest {
    schedules = schedules == null ? List.of() : List.copyOf(schedules);
  }

  static RecurringManifest of(String app, long build, List<ScheduleDefinition> schedules) {
    return new RecurringManifest(Wire.VERSION, app, build, schedules);
  }
}
