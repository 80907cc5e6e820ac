package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.HandlerWorkers;
import io.tasklane.scheduler.internal.schedules.FireLog;
import io.tasklane.scheduler.internal.schedules.FireRecord;
import io.tasklane.scheduler.internal.schedules.Fires;
import io.tasklane.scheduler.internal.schedules.ScheduleState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The status API's JSON of one schedule ({@code GET /api/schedules/{name}}, and its line in {@code
 * GET /api/schedules}): its definition, its timer, its next {@link #NEXT} fire instants, the
 * waiting fire and its fire history newest first (fire instant, kind, task ids with their routing
 * keys and states, lateness, outcome and reason). Epoch millis, each with an ISO-8601 twin. Pure:
 * given a state whose fires are its whole history ({@link FireLog#withHistory}), or for the list
 * its latest fire ({@link FireLog#withLatest}).
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
    ObjectNode o = WireCodec.mapper().createObjectNode();
    o.put("name", name);
    o.put("version", s.version());
    o.put("deleted", s.deleted());
    if (s.definition() != null) {
      o.set("definition", WireCodec.mapper().valueToTree(s.definition()));
      o.put("enabled", s.definition().enabled());
      o.put("paused", !s.definition().enabled());
      if (s.definition().routing() == io.tasklane.core.ScheduleDefinition.Routing.ALL_WORKERS) {
        var live = workers.liveConsumers(s.definition().handler());
        if (live.isPresent()) {
          o.put("liveWorkers", live.getAsInt());
        } else {
          o.putNull("liveWorkers");
        }
      }
    }
    time(o, "nextFireAt", nextFireAt(s));
    ArrayNode next = o.putArray("nextFires");
    for (long t : nextFires(s)) {
      next.add(Instant.ofEpochMilli(t).toString());
    }
    if (s.waiting() != null) {
      o.put("waiting", s.waiting());
    }
    ArrayNode fires = o.putArray("fires");
    List<FireRecord> newestFirst = new ArrayList<>(s.fires());
    java.util.Collections.reverse(newestFirst);
    for (FireRecord f : newestFirst) {
      ObjectNode n = fires.addObject();
      fire(n, f);
      ArrayNode tasks = n.putArray("tasks");
      for (FireRecord.FireTask t : f.tasks()) {
        ObjectNode tn = tasks.addObject();
        tn.put("id", t.id());
        if (!t.routingKey().equals(t.id())) {
          tn.put("routingKey", t.routingKey());
        }
        tn.put("state", t.state() == null ? "RUNNING" : t.state().name());
      }
    }
    return WireCodec.encodeToString(o);
  }

  /**
   * One line of the schedule list ({@code GET /api/schedules}): name, handler, version, origin,
   * enabled and paused, {@code nextFireAt} and the newest fire whose instant is not after {@code
   * now} ({@code lastFire}, without its tasks) or null. A fire made ahead of its instant (see
   * {@code schedule-lead}) is the next fire, not the last one. Null for a deleted schedule (the
   * list leaves it out).
   */
  public static ObjectNode summary(String name, ScheduleState s, long now) {
    if (s.deleted() || s.definition() == null) {
      return null;
    }
    ObjectNode o = WireCodec.mapper().createObjectNode();
    o.put("name", name);
    o.put("handler", s.definition().handler());
    o.put("version", s.version());
    o.put("origin", s.definition().origin());
    o.put("enabled", s.definition().enabled());
    o.put("paused", !s.definition().enabled());
    time(o, "nextFireAt", nextFireAt(s));
    FireRecord last = null;
    for (FireRecord f : s.fires()) {
      if (f.fireAt() <= now && (last == null || f.fireAt() >= last.fireAt())) {
        last = f;
      }
    }
    if (last == null) {
      o.putNull("lastFire");
    } else {
      fire(o.putObject("lastFire"), last);
    }
    return o;
  }

  private static void fire(ObjectNode n, FireRecord f) {
    n.put("fireId", f.fireId());
    time(n, "fireAt", f.fireAt());
    n.put("kind", f.kind().name());
    n.put("outcome", f.outcome().name());
    if (f.reason() != null) {
      n.put("reason", f.reason());
    }
    if (f.parentFire() != null) {
      n.put("parentFire", f.parentFire());
    }
    if (f.madeAt() > 0) {
      time(n, "madeAt", f.madeAt());
      n.put("latenessMs", f.latenessMs());
    }
  }

  /** The fire the timer waits for, or {@link Fires#NONE} when paused (its timer only records). */
  private static long nextFireAt(ScheduleState s) {
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

  private static void time(ObjectNode o, String field, long millis) {
    o.put(field, millis);
    if (millis > 0) {
      o.put(field + "Iso", Instant.ofEpochMilli(millis).toString());
    }
  }
}
