package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tasklane.scheduler.internal.schedules.FireRecord;
import io.tasklane.scheduler.internal.schedules.ScheduleState;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * {@code GET /api/schedules}: a page of the schedules in name order, from every instance; deleted
 * schedules are left out.
 *
 * @param schedules the page's schedules
 * @param nextCursor the name to continue after, null on the last page
 * @param partial whether an instance did not answer (its schedules are missing)
 * @param unreachable the instances that did not answer, {@code host:port}
 */
public record ScheduleListResponse(
    List<Line> schedules, String nextCursor, boolean partial, List<String> unreachable) {

  /**
   * The page of at most {@code limit} of {@code merged} (by name; each instance gave at most {@code
   * limit + 1}, so more names than {@code limit} means more pages). A {@code forwarded} page
   * carries its next line too: the asking instance pages over the merge.
   */
  static ScheduleListResponse page(
      TreeMap<String, Line> merged, int limit, List<String> unreachable, boolean forwarded) {
    List<Line> lines = new ArrayList<>();
    String last = null;
    for (Line l : merged.values()) {
      if (lines.size() == limit) {
        break;
      }
      lines.add(l);
      last = l.name();
    }
    String next = merged.size() > limit ? last : null;
    if (forwarded) {
      merged.values().stream().skip(limit).findFirst().ifPresent(lines::add);
    }
    return new ScheduleListResponse(lines, next, !unreachable.isEmpty(), List.copyOf(unreachable));
  }

  /**
   * One schedule of the list.
   *
   * @param name the schedule
   * @param handler its handler
   * @param version its version
   * @param origin who defined it (e.g. {@code api:<token name>})
   * @param enabled whether it fires
   * @param paused whether an operator paused it (not enabled)
   * @param nextFireAt the fire its timer waits for, -1 when none
   * @param nextFireAtIso the same in ISO-8601 UTC, absent when none
   * @param lastFire the newest fire whose instant has passed, without its tasks; null when none
   */
  public record Line(
      String name,
      String handler,
      long version,
      String origin,
      boolean enabled,
      boolean paused,
      long nextFireAt,
      @JsonInclude(JsonInclude.Include.NON_NULL) String nextFireAtIso,
      ScheduleResponse.Fire lastFire) {

    /**
     * The line of schedule {@code name} in state {@code s} at {@code now} (a fire made ahead of its
     * instant is the next fire, not the last one); null for a deleted schedule.
     */
    static Line of(String name, ScheduleState s, long now) {
      if (s.deleted() || s.definition() == null) {
        return null;
      }
      FireRecord last = null;
      for (FireRecord f : s.fires()) {
        if (f.fireAt() <= now && (last == null || f.fireAt() >= last.fireAt())) {
          last = f;
        }
      }
      long next = ScheduleView.nextFireAt(s);
      return new Line(
          name,
          s.definition().handler(),
          s.version(),
          s.definition().origin(),
          s.definition().enabled(),
          !s.definition().enabled(),
          next,
          ScheduleResponse.iso(next),
          last == null ? null : ScheduleResponse.Fire.of(last, false));
    }
  }
}
