package io.tasklane.scheduler.internal.schedules;

import static io.tasklane.scheduler.internal.Driver.HANDLER;
import static io.tasklane.scheduler.internal.Driver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.Dispatch;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.ScheduleDefinition.Overlap;
import io.tasklane.core.ScheduleFireDone;
import io.tasklane.core.ScheduleTrigger;
import io.tasklane.core.TaskResult;
import io.tasklane.core.TaskState;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.internal.Driver;
import io.tasklane.scheduler.internal.api.ScheduleView;
import io.tasklane.scheduler.internal.lifecycle.SchedulerEvent;
import io.tasklane.scheduler.internal.lifecycle.Stores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fire history's layout: a schedule's state keeps the fires its overlap policy watches only;
 * its finished fires and the running ones of an {@code ALLOW} schedule go to the fire log ({@link
 * Stores#SCHEDULE_FIRES}), and the status read shows the newest 50 of them beside the watched ones,
 * as before.
 */
class ScheduleHistoryTest {
  @TempDir Path dir;
  Driver d;

  @BeforeEach
  void start() {
    d = new Driver(dir);
  }

  @AfterEach
  void stop() {
    d.close();
  }

  ScheduleState raw(String name) {
    KeyValueStore<String, ScheduleState> store = d.driver.getKeyValueStore(Stores.SCHEDULES);
    return store.get(name);
  }

  KeyValueStore<Bytes, byte[]> log() {
    return d.driver.getKeyValueStore(Stores.SCHEDULE_FIRES);
  }

  /** How many finished fires of {@code name} the log holds. */
  int logged(String name) {
    int n = 0;
    try (KeyValueIterator<Bytes, byte[]> it =
        log().range(FireLogCodec.from(name), FireLogCodec.to(name))) {
      while (it.hasNext()) {
        KeyValue<Bytes, byte[]> kv = it.next();
        n += kv.value == null ? 0 : 1;
      }
    }
    return n;
  }

  static ScheduleDefinition.Builder everySecond(String name) {
    return ScheduleDefinition.builder().name(name).version(1).handler(HANDLER).every("1s");
  }

  @Test
  void aHundredFinishedFiresLeaveTheStateSmallAndTheStatusReadShowsTheNewestFifty() {
    d.send("h", everySecond("h").overlap(Overlap.ALLOW).build());
    d.send("n", everySecond("n").build()); // a neighbour whose fires share the log
    for (int i = 0; i < 100; i++) {
      d.advance(1_000);
      for (Dispatch x : d.dispatches()) {
        d.sendResult(x, TaskResult.succeeded(x.id(), x.attempt(), d.now, d.now, "w1"));
      }
    }
    ScheduleState s = raw("h");
    assertThat(s.fires()).isEmpty();
    assertThat(WireCodec.encode(s).length).isLessThan(1_000);
    assertThat(logged("h")).isBetween(FireHistory.KEEP, FireHistory.KEEP + FireLog.SLACK);
    assertThat(logged("n")).isBetween(FireHistory.KEEP, FireHistory.KEEP + FireLog.SLACK);

    JsonNode view = WireCodec.readTree(ScheduleView.json("h", d.schedule("h"), d.workers));
    assertThat(view.get("fires")).hasSize(FireHistory.KEEP);
    assertThat(view.get("fires").get(0).get("fireAt").asLong()).isEqualTo(T0 + 100_000);
    assertThat(view.get("fires").get(49).get("fireAt").asLong()).isEqualTo(T0 + 51_000);
    for (JsonNode f : view.get("fires")) {
      assertThat(f.get("outcome").asText()).isEqualTo("SUCCEEDED");
      assertThat(f.get("tasks").get(0).get("state").asText()).isEqualTo("SUCCEEDED");
    }
    JsonNode line = ScheduleView.summary("h", FireLog.withHistory(log(), "h", s, 1), d.now);
    assertThat(line.get("lastFire").get("fireAt").asLong()).isEqualTo(T0 + 100_000);
  }

  @Test
  void runningAndSkippedFiresStayApartAndAreReadMerged() {
    d.send("s", everySecond("s").overlap(Overlap.SKIP_IF_RUNNING).build());
    d.runTo(T0 + 100_000);
    ScheduleState s = raw("s");
    assertThat(s.fires())
        .extracting(FireRecord::outcome)
        .containsExactly(FireRecord.Outcome.RUNNING);
    JsonNode view = WireCodec.readTree(ScheduleView.json("s", d.schedule("s"), d.workers));
    assertThat(view.get("fires")).hasSize(FireHistory.KEEP + 1);
    assertThat(view.get("fires").get(0).get("outcome").asText()).isEqualTo("SKIPPED");
    assertThat(view.get("fires").get(0).get("reason").asText()).startsWith("running: fire ");
    assertThat(view.get("fires").get(FireHistory.KEEP).get("outcome").asText())
        .isEqualTo("RUNNING");
  }

  @Test
  void aStateOfTheOlderLayoutLoadsAndHandsItsFinishedFiresToTheLogAtItsNextWrite() {
    // as restored from a changelog written before the fire log: in the store before the processor
    // ever read or wrote the schedule (it keeps the states it handled decoded)
    ScheduleDefinition def = everySecond("o").startAt(T0 + 3_600_000).build();
    FireRecord old =
        FireRecord.noTask(
            "o-old", T0 - 5_000, FireRecord.Kind.TRIGGER, 0, null, FireRecord.Outcome.SKIPPED, "x");
    ScheduleState older =
        new ScheduleState(def, def.version(), false, T0 + 3_600_000, Fires.NONE)
            .withFires(List.of(old), null);
    String json =
        new String(WireCodec.encode(older), StandardCharsets.UTF_8).replace(",\"logged\":0", "");
    assertThat(json).doesNotContain("logged");
    ScheduleState loaded =
        new ScheduleState.StoreSerde()
            .deserializer()
            .deserialize("t", json.getBytes(StandardCharsets.UTF_8));
    KeyValueStore<String, ScheduleState> store = d.driver.getKeyValueStore(Stores.SCHEDULES);
    store.put("o", loaded);
    assertThat(d.schedule("o").fires()).containsExactly(old);

    d.send("o", ScheduleTrigger.of("o", "t1", d.now));
    assertThat(raw("o").fires()).as("an ALLOW schedule's running fire is logged too").isEmpty();
    assertThat(d.schedule("o").fires()).hasSize(2).first().isEqualTo(old);
    assertThat(d.schedule("o").fires().get(1).outcome()).isEqualTo(FireRecord.Outcome.RUNNING);
    assertThat(logged("o")).isEqualTo(2);
  }

  @Test
  void anAllowScheduleWhoseFiresPileUpKeepsASmallStateAndItsLateResultsStillCount() {
    d.send("child", everySecond("child").startAt(T0 + 3_600_000).build());
    d.send("p", everySecond("p").children(List.of("child")).build());
    for (int i = 0; i < 250; i++) { // within the tasks' 5-minute timeout: none finishes
      d.advance(1_000);
    }
    List<Dispatch> running = d.dispatches();
    assertThat(running).hasSizeGreaterThanOrEqualTo(250);
    ScheduleState s = raw("p");
    assertThat(s.fires()).as("no running fire of an ALLOW schedule in its state").isEmpty();
    assertThat(WireCodec.encode(s).length).isLessThan(1_000);
    assertThat(logged("p")).isBetween(FireHistory.MAX, FireHistory.MAX + FireLog.SLACK);

    Dispatch last = running.get(running.size() - 1);
    Dispatch pruned = running.get(0);
    d.sendResult(last, TaskResult.succeeded(last.id(), last.attempt(), d.now, d.now, "w1"));
    d.sendResult(pruned, TaskResult.succeeded(pruned.id(), pruned.attempt(), d.now, d.now, "w1"));
    List<FireRecord> fires = d.schedule("p").fires();
    FireRecord newest = fires.get(fires.size() - 1);
    assertThat(newest.tasks().get(0).id()).isEqualTo(last.id());
    assertThat(newest.outcome()).isEqualTo(FireRecord.Outcome.SUCCEEDED);
    assertThat(raw("p").fires()).isEmpty();
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_CHILD_STARTED))
        .as("the child of the one fire that succeeded and is still tracked")
        .isEqualTo(1);
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_FIRE_DONE_UNKNOWN))
        .as("the oldest fire beyond the cap is no longer tracked")
        .isEqualTo(1);

    // a notice written before notices carried the fire instant is found by its id
    Dispatch older = running.get(running.size() - 2);
    String olderFire = older.task().headers().get(ScheduleMachine.HEADER_FIRE_ID);
    d.send("p", ScheduleFireDone.of("p", olderFire, older.id(), TaskState.SUCCEEDED, null, d.now));
    assertThat(d.metrics.get(SchedulerEvent.SCHEDULE_CHILD_STARTED)).isEqualTo(2);
  }
}
