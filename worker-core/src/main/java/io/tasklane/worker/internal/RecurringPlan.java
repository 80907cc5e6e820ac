package io.tasklane.worker.internal;

import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.WireCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a start publishes, as a pure function of the code's definitions, the app's last manifest,
 * its build and the time. The rules (docs/schedules.md, "Defined in code"):
 *
 * <ul>
 *   <li>a definition equal to the manifest's (version aside) is not published again;
 *   <li>a new or changed one is published with version {@code max(now, previous + 1)};
 *   <li>one in the manifest but not in the code is published once more with {@code enabled: false}
 *       and a new version (disabled, not deleted), and kept in the manifest so;
 *   <li>a start whose build is lower than the manifest's publishes nothing: a newer deployment owns
 *       the schedules.
 * </ul>
 *
 * @param publish the definitions to send to {@code <ns>.tasks}, in order
 * @param disabled the names among them that are disabled because the code lost them
 * @param manifest the manifest to write afterwards, or null when it is unchanged
 * @param olderBuild true when nothing is done because the manifest's build is newer
 */
record RecurringPlan(
    List<ScheduleDefinition> publish,
    List<String> disabled,
    RecurringManifest manifest,
    boolean olderBuild) {

  static RecurringPlan of(
      List<ScheduleDefinition> code, RecurringManifest previous, String app, long build, long now) {
    if (previous != null && previous.build() > build) {
      return new RecurringPlan(List.of(), List.of(), null, true);
    }
    Map<String, ScheduleDefinition> before = new LinkedHashMap<>();
    if (previous != null) {
      previous.schedules().forEach(d -> before.put(d.name(), d));
    }
    List<ScheduleDefinition> publish = new ArrayList<>();
    List<String> disabled = new ArrayList<>();
    List<ScheduleDefinition> next = new ArrayList<>();
    for (ScheduleDefinition d : code) {
      ScheduleDefinition old = before.remove(d.name());
      if (old != null && sameContent(old, d)) {
        next.add(old);
      } else {
        ScheduleDefinition versioned = d.toBuilder().version(version(old, now)).build();
        publish.add(versioned);
        next.add(versioned);
      }
    }
    for (ScheduleDefinition old : before.values()) {
      if (Boolean.FALSE.equals(old.enabled())) {
        next.add(old);
      } else {
        ScheduleDefinition off = old.toBuilder().enabled(false).version(version(old, now)).build();
        publish.add(off);
        disabled.add(off.name());
        next.add(off);
      }
    }
    RecurringManifest manifest = RecurringManifest.of(app, build, next);
    // An app that never defined a schedule in code gets no manifest.
    boolean unchanged = previous == null ? next.isEmpty() : previous.equals(manifest);
    return new RecurringPlan(
        List.copyOf(publish), List.copyOf(disabled), unchanged ? null : manifest, false);
  }

  private static long version(ScheduleDefinition old, long now) {
    return old == null ? now : Math.max(now, old.version() + 1);
  }

  /** Equal apart from the version, compared as the JSON the scheduler receives. */
  static boolean sameContent(ScheduleDefinition a, ScheduleDefinition b) {
    return WireCodec.encodeToString(a.toBuilder().version(0).build())
        .equals(WireCodec.encodeToString(b.toBuilder().version(0).build()));
  }
}
