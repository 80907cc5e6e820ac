package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.HandlerWorkers;
import io.tasklane.scheduler.internal.schedules.FireLog;
import io.tasklane.scheduler.internal.schedules.Fires;
import io.tasklane.scheduler.internal.schedules.ScheduleState;
import java.util.ArrayList;
import java.util.List;

/**
 * The status API's JSON of one schedule ({@code GET /api/schedules/{name}}, {@link
 * ScheduleResponse}) and of its line in {@code GET /api/schedules} ({@link
 * ScheduleListResponse.Line}), and the fire instants they show: the one the timer waits for and the
 * next {@link #NEXT}. Pure: given a state whose fires are its whole history ({@link
 * FireLog#withHistory}), or for the list its latest fire ({@link FireLog#withLatest}).
 */
public final class ScheduleView {
  /** How many coming fire instants the view lists. */
  static final int NEXT = 5;

  private ScheduleView() {}

  /**
   * @param workers the handler's live workers as the scheduler last saw them (shown for {@code
   *     ALL_WORKERS} as {@code liveWorkers}: the task count of its next fire)
   */
  public static String json(String name, ScheduleState s, HandlerWorkers workers) {
    return WireCodec.encodeToString(ScheduleResponse.of(name, s, workers));
  }

  /**
   * One line of the schedule list ({@code GET /api/schedules}) at {@code now}, as JSON ({@link
   * ScheduleListResponse.Line#of}); null for a deleted schedule (the list leaves it out).
   */
  public static ObjectNode summary(String name, ScheduleState s, long now) {
    ScheduleListResponse.Line line = ScheduleListResponse.Line.of(name, s, now);
    return line == null ? null : WireCodec.mapper().valueToTree(line);
  }

  /** The fire the timer waits for, or {@link Fires#NONE} when paused (its timer only records). */
  static long nextFireAt(ScheduleState s) {
    return s.definition() == null || !s.definition().enabled() ? Fires.NONE : s.nextFireAt();
  }

  /**
   * The next {@link #NEXT} fire instants from the one the timer waits for (none when paused,
   * deleted or past its end).
   */
  static List<Long> nextFires(ScheduleState s) {
    List<Long> out = new ArrayList<>(NEXT);
    if (nextFireAt(s) == Fires.NONE || s.deleted()) {
      return out;
    }
    Fires fires = Fires.stored(s.definition());
    long t = s.nextFireAt();
    while (t != Fires.NONE && out.size() < NEXT) {
      out.add(t);
      t = fires.after(t);
    }
    return out;
  }
}
