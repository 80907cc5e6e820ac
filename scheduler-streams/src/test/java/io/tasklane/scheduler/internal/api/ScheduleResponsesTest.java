package io.tasklane.scheduler.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.lifecycle.HandlerWorkers;
import io.tasklane.scheduler.internal.schedules.FireRecord;
import io.tasklane.scheduler.internal.schedules.Fires;
import io.tasklane.scheduler.internal.schedules.ScheduleState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The typed answers of the schedule endpoints — one schedule ({@link ScheduleResponse}), the list
 * ({@link ScheduleListResponse}) and the outcome of define, pause, resume and delete ({@link
 * ScheduleActionResponse}) — write what the API answered when it built them by hand (kept here as
 * the reference), byte for byte; and another instance reads the typed list lines back as they were.
 */
class ScheduleResponsesTest {
  private static final long T = 1_800_000_000_000L;

  private static final HandlerWorkers THREE_LIVE =
      new HandlerWorkers() {
        @Override
        public OptionalInt liveConsumers(String handler) {
          return OptionalInt.of(3);
        }

        @Override
        public OptionalInt partitions(String handler) {
          return OptionalInt.of(6);
        }
      };

  @Test
  void everyScheduleReadsAsBefore() {
    int compared = 0;
    for (ScheduleState s : states()) {
      for (HandlerWorkers workers : List.of(THREE_LIVE, HandlerWorkers.UNKNOWN)) {
        String typed = ScheduleView.json("nightly", s, workers);
        assertThat(typed).isEqualTo(viewBefore("nightly", s, workers));
        compared++;
      }
    }
    assertThat(compared).isEqualTo(2 * states().size());
  }

  @Test
  void everyListLineReadsAsBeforeAndReadsBackAsItWas() {
    for (ScheduleState s : states()) {
      for (long now : new long[] {0, T - 1, T, T + 30_000, T + 10_000_000}) {
        ScheduleListResponse.Line line = ScheduleListResponse.Line.of("nightly", s, now);
        ObjectNode before = summaryBefore("nightly", s, now);
        if (before == null) {
          assertThat(line).isNull();
          continue;
        }
        String typed = WireCodec.encodeToString(line);
        assertThat(typed).isEqualTo(WireCodec.encodeToString(before));
        assertThat(WireCodec.treeToValue(WireCodec.readTree(typed), line.getClass()))
            .isEqualTo(line);
      }
    }
  }

  @Test
  void everyPageReadsAsBefore() {
    List<ScheduleState> live = states().stream().filter(s -> !s.deleted()).toList();
    for (int n = 0; n <= 7; n++) {
      TreeMap<String, ScheduleListResponse.Line> merged = new TreeMap<>();
      TreeMap<String, ObjectNode> mergedBefore = new TreeMap<>();
      for (int i = 0; i < n; i++) {
        ScheduleState s = live.get(i % live.size());
        String name = "s-" + (char) ('a' + i);
        merged.put(name, ScheduleListResponse.Line.of(name, s, T + 30_000));
        mergedBefore.put(name, summaryBefore(name, s, T + 30_000));
      }
      for (int limit : new int[] {1, 3, 5, 50}) {
        for (List<String> unreachable : List.of(List.<String>of(), List.of("10.0.0.2:8080"))) {
          for (boolean forwarded : new boolean[] {false, true}) {
            String typed =
                WireCodec.encodeToString(
                    ScheduleListResponse.page(merged, limit, unreachable, forwarded));
            assertThat(typed).isEqualTo(pageBefore(mergedBefore, limit, unreachable, forwarded));
          }
        }
      }
    }
  }

  @Test
  void everyOperationOutcomeReadsAsBefore() {
    for (String action : List.of("define", "pause", "resume", "delete")) {
      for (String outcome : List.of("applied", "ignored", "pending")) {
        for (String reason : Arrays.asList(null, "already paused", "superseded by version 9")) {
          for (long version : new long[] {-1, T, T + 1}) {
            for (List<String> warnings :
                List.of(List.<String>of(), List.of("never fires", "last fire 2099-12-31"))) {
              ScheduleActionResponse typed =
                  ScheduleActionResponse.of("nightly", action, outcome, reason, version)
                      .withWarnings(warnings);
              assertThat(WireCodec.encodeToString(typed))
                  .isEqualTo(outcomeBefore("nightly", action, outcome, reason, version, warnings));
              assertThat(typed.httpStatus()).isEqualTo("pending".equals(outcome) ? 202 : 200);
            }
          }
        }
      }
    }
  }

  /**
   * Schedules enabled, paused, fanned out to all workers, waiting, deleted; fires of every kind and
   * outcome, made or not, with tasks running, finished, keyed by their id or another key.
   */
  private static List<ScheduleState> states() {
    ScheduleDefinition every =
        ScheduleDefinition.builder()
            .name("nightly")
            .version(3)
            .handler("mail")
            .every("10s")
            .payload(WireCodec.readTree("{\"to\":\"a@b.c\"}"))
            .origin("api:ops")
            .build();
    ScheduleDefinition cron =
        every.toBuilder()
            .every(null)
            .cron("0 0 9 ? * 1-5")
            .zone("Europe/Berlin")
            .overlap(ScheduleDefinition.Overlap.QUEUE)
            .build();
    ScheduleDefinition allWorkers =
        every.toBuilder().routing(ScheduleDefinition.Routing.ALL_WORKERS).build();
    ScheduleDefinition paused = every.toBuilder().enabled(false).build();
    FireRecord made =
        new FireRecord(
            "f-1",
            T,
            FireRecord.Kind.CALENDAR,
            0,
            null,
            T + 40,
            40,
            List.of(
                new FireRecord.FireTask("t-1", "t-1", TaskState.SUCCEEDED),
                new FireRecord.FireTask("t-2", "customer-7", null)),
            FireRecord.Outcome.RUNNING,
            null);
    FireRecord skipped =
        new FireRecord(
            "f-2",
            T + 10_000,
            FireRecord.Kind.TRIGGER,
            0,
            null,
            0,
            0,
            null,
            FireRecord.Outcome.SKIPPED,
            "overlap");
    FireRecord child =
        new FireRecord(
            "f-3",
            T + 20_000,
            FireRecord.Kind.CHILD,
            1,
            "f-1",
            T + 20_005,
            5,
            List.of(new FireRecord.FireTask("t-3", "t-3", TaskState.DEAD)),
            FireRecord.Outcome.DEAD,
            "handler failed");
    FireRecord queued =
        new FireRecord(
            "f-4",
            T + 60_000,
            FireRecord.Kind.CALENDAR,
            0,
            null,
            0,
            0,
            null,
            FireRecord.Outcome.QUEUED,
            "waiting for f-1");
    FireRecord unset =
        new FireRecord(
            "f-0",
            0,
            FireRecord.Kind.TRIGGER,
            0,
            null,
            0,
            0,
            null,
            FireRecord.Outcome.MISFIRED,
            null);
    List<FireRecord> history = List.of(unset, made, skipped, child);
    List<ScheduleState> out = new ArrayList<>();
    out.add(new ScheduleState(every, 3, false, T + 30_000, T + 20_000, List.of(), null, 0));
    out.add(new ScheduleState(every, 3, false, T + 30_000, T + 20_000, history, null, 4));
    out.add(
        new ScheduleState(cron, 4, false, T + 60_000, T + 20_000, List.of(made, queued), "f-4", 2));
    out.add(new ScheduleState(allWorkers, 5, false, T + 30_000, T, List.of(made), null, 1));
    out.add(new ScheduleState(paused, 6, false, T + 30_000, T, history, null, 4));
    out.add(new ScheduleState(every, 7, false, Fires.NONE, T, List.of(skipped), null, 1));
    out.add(new ScheduleState(null, 8, true, T + 86_400_000, T, history, null, 4));
    out.add(new ScheduleState(null, 9, true, Fires.NONE, Fires.NONE, List.of(), null, 0));
    return out;
  }

  // ---- the answers as the API built them by hand, for reference ----

  private static String viewBefore(String name, ScheduleState s, HandlerWorkers workers) {
    ObjectNode o = WireCodec.mapper().createObjectNode();
    o.put("name", name);
    o.put("version", s.version());
    o.put("deleted", s.deleted());
    if (s.definition() != null) {
      o.set("definition", WireCodec.mapper().valueToTree(s.definition()));
      o.put("enabled", s.definition().enabled());
      o.put("paused", !s.definition().enabled());
      if (s.definition().routing() == ScheduleDefinition.Routing.ALL_WORKERS) {
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
    Collections.reverse(newestFirst);
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

  private static ObjectNode summaryBefore(String name, ScheduleState s, long now) {
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

  private static String pageBefore(
      TreeMap<String, ObjectNode> merged, int limit, List<String> unreachable, boolean forwarded) {
    ObjectNode out = WireCodec.mapper().createObjectNode();
    ArrayNode list = out.putArray("schedules");
    String last = null;
    for (ObjectNode n : merged.values()) {
      if (list.size() == limit) {
        break;
      }
      list.add(n);
      last = n.get("name").asText();
    }
    out.put("nextCursor", merged.size() > limit ? last : null);
    out.put("partial", !unreachable.isEmpty());
    ArrayNode missing = out.putArray("unreachable");
    unreachable.forEach(missing::add);
    if (forwarded) {
      merged.values().stream().skip(limit).findFirst().ifPresent(list::add);
    }
    return WireCodec.encodeToString(out);
  }

  private static String outcomeBefore(
      String name,
      String action,
      String outcome,
      String reason,
      long version,
      List<String> warnings) {
    ObjectNode o = WireCodec.mapper().createObjectNode();
    o.put("name", name);
    o.put("action", action);
    o.put("outcome", outcome);
    if (!"pending".equals(outcome)) {
      o.put("reason", reason);
    }
    if (version >= 0) {
      o.put("version", version);
    }
    if (!warnings.isEmpty()) {
      ObjectNode w = (ObjectNode) WireCodec.readTree(WireCodec.encodeToString(o));
      ArrayNode a = w.putArray("warnings");
      warnings.forEach(a::add);
      return WireCodec.encodeToString(w);
    }
    return WireCodec.encodeToString(o);
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

  private static long nextFireAt(ScheduleState s) {
    return s.definition() == null || !s.definition().enabled() ? Fires.NONE : s.nextFireAt();
  }

  private static List<Long> nextFires(ScheduleState s) {
    List<Long> out = new ArrayList<>();
    if (nextFireAt(s) == Fires.NONE || s.deleted()) {
      return out;
    }
    Fires fires = Fires.stored(s.definition());
    long t = s.nextFireAt();
    while (t != Fires.NONE && out.size() < 5) {
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
