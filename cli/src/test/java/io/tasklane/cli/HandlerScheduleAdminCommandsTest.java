package io.tasklane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.BatchPart;
import io.tasklane.core.ReservedHeaders;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskIds;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code handlers} (with {@code lanes} and {@code set-lanes}), {@code workers}, {@code schedules
 * list|define|pause|resume|delete}, {@code report} and {@code audit} against the real scheduler
 * app.
 */
@TasklaneStack
class HandlerScheduleAdminCommandsTest {
  static final String HANDLER = "cli.admin";
  static final String HELD = "cli.held";
  static final String LANES = "cli.lanes";

  @TempDir static Path stateDir;
  @TempDir static Path files;
  static LiveScheduler scheduler;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    scheduler = new LiveScheduler(stack, stateDir);
    scheduler.createHandlerTopic(HANDLER);
    scheduler.createHandlerTopic(HELD);
    scheduler.createHandlerTopic(LANES);
  }

  @AfterAll
  static void stop() {
    if (scheduler != null) {
      scheduler.close();
    }
  }

  @Test
  void handlersAreListedPausedResumedAndSized() throws Exception {
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              CliRun.Result r = scheduler.cli(scheduler.viewer).run("handlers");
              assertThat(r.exit()).as(r.toString()).isZero();
              assertThat(r.out()).startsWith("NAME").contains(HANDLER);
            });
    CliRun.Result viewerPauses = scheduler.cli(scheduler.viewer).run("handlers", "pause", HANDLER);
    assertThat(viewerPauses.exit()).isEqualTo(1);
    assertThat(viewerPauses.err()).contains("answered 403");

    assertThat(scheduler.cli(scheduler.admin).run("handlers", "pause", HANDLER).exit()).isZero();
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        scheduler
                            .cli(scheduler.viewer)
                            .run("handlers", "show", HANDLER, "--json")
                            .json()
                            .path("paused")
                            .asBoolean())
                    .isTrue());
    // Two due tasks of a paused handler wait in its backlog: the table and the JSON show them.
    assertThat(scheduler.cli(scheduler.admin).run("handlers", "pause", HELD).exit()).isZero();
    for (int i = 0; i < 2; i++) {
      TaskEnvelope task = LiveScheduler.task(HELD, System.currentTimeMillis(), 1);
      scheduler.send(task.routingKey(), task);
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              CliRun.Result json =
                  scheduler.cli(scheduler.viewer).run("handlers", "show", HELD, "--json");
              assertThat(json.json().path("backlog").asLong()).as(json.out()).isEqualTo(2);
              assertThat(json.json().path("counts").path("PENDING").asLong()).isEqualTo(2);
              assertThat(json.json().path("recent").path("succeeded").asLong()).isZero();
              CliRun.Result table = scheduler.cli(scheduler.viewer).run("handlers");
              assertThat(table.out())
                  .contains("BACKLOG", "DONE/MIN", "RUN-P99")
                  .containsPattern("(?m)^" + HELD.replace(".", "\\.") + "\\s+paused\\s.*\\s2\\s");
              CliRun.Result show = scheduler.cli(scheduler.viewer).run("handlers", "show", HELD);
              assertThat(show.out()).contains("tasks PENDING 2");
            });
    assertThat(scheduler.cli(scheduler.admin).run("handlers", "resume", HANDLER).exit()).isZero();
    CliRun.Result sized =
        scheduler.cli(scheduler.admin).run("handlers", "concurrency", HANDLER, "4", "--json");
    assertThat(sized.exit()).as(sized.toString()).isZero();
    CliRun.Result zero =
        scheduler.cli(scheduler.admin).run("handlers", "concurrency", HANDLER, "0");
    assertThat(zero.exit()).isEqualTo(2);

    CliRun.Result workers = scheduler.cli(scheduler.viewer).run("workers", "--json");
    assertThat(workers.exit()).isZero();
    assertThat(workers.json().path("workers").isArray()).isTrue();
  }

  @Test
  void aBlockedLaneIsListedAndTheLanesSettingIsSet() throws Exception {
    // three tasks of one ordered lane, one attempt of 1 s that no worker answers: the first goes
    // DEAD and blocks the lane (BLOCK is the default), the two others wait behind it (the holder
    // and the head are read from the JSON: which task runs first is the scheduler's matter)
    List<TaskEnvelope> lane = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      TaskEnvelope task =
          LiveScheduler.task(LANES, System.currentTimeMillis(), 1).toBuilder()
              .orderingKey("customer-7")
              .build();
      lane.add(task);
      scheduler.send(task.routingKey(), task);
    }
    List<String> ids = lane.stream().map(TaskEnvelope::id).toList();
    String[] holderAndHead = new String[2];
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              CliRun.Result json =
                  scheduler.cli(scheduler.viewer).run("handlers", "lanes", LANES, "--json");
              assertThat(json.exit()).as(json.toString()).isZero();
              JsonNode l = json.json();
              assertThat(l.path("blocked").asLong()).as(json.out()).isEqualTo(1);
              assertThat(l.path("waiting").asLong()).as(json.out()).isEqualTo(2);
              JsonNode top = l.path("top").path(0);
              assertThat(top.path("key").asText()).isEqualTo("customer-7");
              assertThat(top.path("kind").asText()).isEqualTo("ordered");
              assertThat(top.path("blocked").asBoolean()).isTrue();
              JsonNode holders = top.path("holders");
              assertThat(holders.size()).as(json.out()).isEqualTo(1);
              String holder = holders.fieldNames().next();
              assertThat(holders.path(holder).asText()).as(json.out()).isEqualTo("DEAD");
              String head = top.path("head").asText();
              assertThat(ids).as(json.out()).contains(holder, head);
              assertThat(head).isNotEqualTo(holder);
              holderAndHead[0] = holder;
              holderAndHead[1] = head;
            });
    CliRun.Result table = scheduler.cli(scheduler.viewer).run("handlers", "lanes", LANES);
    assertThat(table.exit()).as(table.toString()).isZero();
    assertThat(table.out())
        .startsWith(
            LANES
                + ": lanes 1, active 1, blocked 1, waiting 2;"
                + " max per key unlimited, on dead BLOCK\n")
        .containsPattern("(?m)^KEY\\s+KIND\\s+HOLDERS\\s+WAITING\\s+HEAD\\s+BLOCKED$")
        .containsPattern(
            "(?m)^customer-7\\s+ordered\\s+"
                + holderAndHead[0]
                + ":DEAD\\s+2\\s+"
                + holderAndHead[1]
                + "\\s+BLOCKED$");
    CliRun.Result badLimit =
        scheduler.cli(scheduler.viewer).run("handlers", "lanes", LANES, "--limit", "0");
    assertThat(badLimit.exit()).isEqualTo(2);
    assertThat(badLimit.err()).contains("--limit 0 is outside 1 to 500");

    CliRun.Result operatorSets =
        scheduler.cli(scheduler.operator).run("handlers", "set-lanes", LANES, "--max-per-key", "2");
    assertThat(operatorSets.exit()).isEqualTo(1);
    assertThat(operatorSets.err()).contains("answered 403");
    CliRun.Result nothing = scheduler.cli(scheduler.admin).run("handlers", "set-lanes", LANES);
    assertThat(nothing.exit()).isEqualTo(2);
    assertThat(nothing.err()).contains("--max-per-key or --on-dead");
    CliRun.Result badMax =
        scheduler.cli(scheduler.admin).run("handlers", "set-lanes", LANES, "--max-per-key", "0");
    assertThat(badMax.exit()).isEqualTo(2);
    assertThat(badMax.err()).contains("--max-per-key 0 must be an integer from 1 to 100000");
    CliRun.Result badOnDead =
        scheduler.cli(scheduler.admin).run("handlers", "set-lanes", LANES, "--on-dead", "WAIT");
    assertThat(badOnDead.exit()).isEqualTo(2);
    assertThat(badOnDead.err()).contains("--on-dead WAIT must be BLOCK, SKIP or default");

    CliRun.Result set =
        scheduler.cli(scheduler.admin).run("handlers", "set-lanes", LANES, "--max-per-key", "3");
    assertThat(set.exit()).as(set.toString()).isZero();
    assertThat(set.out())
        .isEqualTo(
            "set-lanes " + LANES + ": max per key 3, on dead BLOCK" + System.lineSeparator());
    CliRun.Result setJson =
        scheduler
            .cli(scheduler.admin)
            .run("handlers", "set-lanes", LANES, "--on-dead", "skip", "--json");
    assertThat(setJson.exit()).as(setJson.toString()).isZero();
    assertThat(setJson.json().path("maxPerKey").asInt()).isEqualTo(3);
    assertThat(setJson.json().path("onDead").asText()).isEqualTo("SKIP");
    CliRun.Result show = scheduler.cli(scheduler.viewer).run("handlers", "show", LANES);
    assertThat(show.out()).contains("  lanes: max per key 3, on dead SKIP");
    assertThat(
            scheduler
                .cli(scheduler.admin)
                .run("handlers", "set-lanes", LANES, "--max-per-key", "none")
                .out())
        .contains("max per key unlimited, on dead SKIP");
    assertThat(
            scheduler
                .cli(scheduler.admin)
                .run(
                    "handlers",
                    "set-lanes",
                    LANES,
                    "--max-per-key",
                    "default",
                    "--on-dead",
                    "default")
                .out())
        .as("back to the scheduler's configuration, which sets nothing for the handler")
        .contains("max per key unlimited, on dead BLOCK");
  }

  @Test
  void schedulesAreDefinedListedPausedResumedAndDeleted() throws Exception {
    Path def = files.resolve("cli-hourly.json");
    Files.writeString(def, "{\"handler\":\"" + HANDLER + "\",\"every\":\"1h\"}");
    CliRun.Result operatorDefines =
        scheduler
            .cli(scheduler.operator)
            .run("schedules", "define", "cli-hourly", "--file", def.toString());
    assertThat(operatorDefines.exit()).isEqualTo(1);
    assertThat(operatorDefines.err()).contains("answered 403");

    CliRun.Result defined =
        scheduler
            .cli(scheduler.admin)
            .run("schedules", "define", "cli-hourly", "--file", def.toString());
    assertThat(defined.exit()).as(defined.toString()).isZero();
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              CliRun.Result r = scheduler.cli(scheduler.viewer).run("schedules", "list", "--all");
              assertThat(r.exit()).isZero();
              assertThat(r.out()).contains("cli-hourly", HANDLER);
            });

    assertThat(scheduler.cli(scheduler.admin).run("schedules", "pause", "cli-hourly").exit())
        .isZero();
    assertThat(scheduler.cli(scheduler.admin).run("schedules", "resume", "cli-hourly").exit())
        .isZero();

    CliRun.Result declined =
        scheduler.cli(scheduler.admin).stdin("no\n").run("schedules", "delete", "cli-hourly");
    assertThat(declined.exit()).isEqualTo(5);
    CliRun.Result deleted =
        scheduler.cli(scheduler.admin).run("schedules", "delete", "cli-hourly", "--yes");
    assertThat(deleted.exit()).as(deleted.toString()).isZero();

    Path broken = files.resolve("broken.json");
    Files.writeString(broken, "{\"handler\":");
    CliRun.Result bad =
        scheduler.cli(scheduler.admin).run("schedules", "define", "x", "--file", broken.toString());
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("--file " + broken);
  }

  @Test
  void reportAndAuditAnswerTablesAndJson() throws Exception {
    var task = LiveScheduler.task(HANDLER, System.currentTimeMillis() + 3_600_000, 5);
    scheduler.send(task.routingKey(), task);
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () ->
                assertThat(scheduler.cli(scheduler.viewer).run("tasks", "show", task.id()).exit())
                    .isZero());
    assertThat(scheduler.cli(scheduler.operator).run("tasks", "cancel", task.id()).exit()).isZero();

    CliRun.Result audit = scheduler.cli(scheduler.operator).run("audit", "--since", "10m");
    assertThat(audit.exit()).as(audit.toString()).isZero();
    assertThat(audit.out()).startsWith("AT").contains("ops-alice", task.id());

    CliRun.Result report =
        scheduler
            .cli(scheduler.viewer)
            .run("report", "--handler", HANDLER, "--bucket", "minute", "--since", "10m", "--json");
    assertThat(report.exit()).as(report.toString()).isZero();
    assertThat(report.json().path("bucket").asText()).isEqualTo("minute");
    assertThat(report.json().path("points").isArray()).isTrue();
    CliRun.Result badBucket =
        scheduler.cli(scheduler.viewer).run("report", "--handler", HANDLER, "--bucket", "week");
    assertThat(badBucket.exit()).isEqualTo(2);
    assertThat(badBucket.err()).contains("--bucket week must be minute, hour or day");
  }

  @Test
  void aBatchShowsItsMembersAndTheCallbackItsEndMade() throws Exception {
    String batch = "cli-batch-1";
    long now = System.currentTimeMillis();
    TaskEnvelope member =
        LiveScheduler.task(HANDLER, now + 3_600_000, 1).toBuilder()
            .headers(Map.of(ReservedHeaders.BATCH, batch))
            .build();
    scheduler.send(member.routingKey(), member);
    scheduler.send(
        BatchPart.key(batch),
        BatchPart.members(batch, UUID.randomUUID().toString(), List.of(member.id()), now));
    scheduler.send(
        BatchPart.key(batch),
        BatchPart.seal(
            batch, UUID.randomUUID().toString(), null, LiveScheduler.task(HANDLER, now, 1), now));
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(scheduler.cli(scheduler.viewer).run("batches", "show", batch).out())
                    .contains("RUNNING (0%)", "1 total, 1 pending"));

    assertThat(scheduler.cli(scheduler.operator).run("tasks", "cancel", member.id()).exit())
        .isZero();
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              JsonNode b =
                  scheduler.cli(scheduler.viewer).run("batches", "show", batch, "--json").json();
              assertThat(b.path("state").asText()).isEqualTo("COMPLETE");
              assertThat(b.path("cancelled").asLong()).isEqualTo(1);
              assertThat(b.path("completeTask").asText())
                  .isEqualTo(TaskIds.forBatchCallback(batch, "complete"));
            });
    CliRun.Result shown = scheduler.cli(scheduler.viewer).run("batches", "show", batch);
    assertThat(shown.out())
        .contains("COMPLETE (100%)", "1 cancelled", "onComplete " + HANDLER + " -> task ");

    // a second, open batch: the list shows both in id order, a page at a time and by state
    String open = "cli-batch-2";
    scheduler.send(
        BatchPart.key(open), BatchPart.members(open, UUID.randomUUID().toString(), List.of(), now));
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(scheduler.cli(scheduler.viewer).run("batches", "list").out())
                    .startsWith("BATCH")
                    .contains(batch, open, "COMPLETE", "OPEN"));
    CliRun.Result page = scheduler.cli(scheduler.viewer).run("batches", "list", "--limit", "1");
    assertThat(page.out()).contains(batch, "more: --cursor " + batch).doesNotContain(open);
    JsonNode all =
        scheduler
            .cli(scheduler.viewer)
            .run("batches", "list", "--limit", "1", "--all", "--json")
            .json();
    assertThat(all.path("batches").findValuesAsText("id")).containsExactly(batch, open);
    assertThat(all.path("nextCursor").isNull()).isTrue();
    CliRun.Result running =
        scheduler.cli(scheduler.viewer).run("batches", "list", "--state", "OPEN");
    assertThat(running.out()).contains(open).doesNotContain(batch);
    CliRun.Result badState =
        scheduler.cli(scheduler.viewer).run("batches", "list", "--state", "DONE");
    assertThat(badState.exit()).isEqualTo(1);
    assertThat(badState.err()).contains("state: 'DONE' is not one of OPEN");

    CliRun.Result unknown = scheduler.cli(scheduler.viewer).run("batches", "show", "no-such");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).contains("answered 404");
    CliRun.Result bad = scheduler.cli(scheduler.viewer).run("batches", "show", "bad id!");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).contains("answered 400");
  }

  @Test
  void rateLimitsAreSetListedAndRemovedAtRunTime() {
    CliRun.Result viewerSets =
        scheduler.cli(scheduler.viewer).run("limits", "set", "cli-partner", "50/s");
    assertThat(viewerSets.exit()).isEqualTo(1);
    assertThat(viewerSets.err()).contains("answered 403");
    CliRun.Result bad = scheduler.cli(scheduler.admin).run("limits", "set", "cli-partner", "fast");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).contains("rate: 'fast' must read");

    CliRun.Result set =
        scheduler.cli(scheduler.admin).run("limits", "set", "cli-partner", "50/s", "--burst", "10");
    assertThat(set.exit()).as(set.toString()).isZero();
    assertThat(set.out()).contains("set cli-partner: 50/s burst 10 (api)");
    CliRun.Result own =
        scheduler.cli(scheduler.admin).run("limits", "set", HANDLER, "600/min", "--handler");
    assertThat(own.out()).contains("set handler/" + HANDLER + ": 600/min burst 1 (api)");

    CliRun.Result list = scheduler.cli(scheduler.viewer).run("limits");
    assertThat(list.exit()).as(list.toString()).isZero();
    assertThat(list.out()).startsWith("NAME").contains("cli-partner", "handler/" + HANDLER);
    JsonNode json = scheduler.cli(scheduler.viewer).run("limits", "list", "--json").json();
    assertThat(json.path("limits").findValuesAsText("updatedBy")).contains("admin-carol");

    CliRun.Result removed = scheduler.cli(scheduler.admin).run("limits", "remove", "cli-partner");
    assertThat(removed.out()).contains("remove cli-partner: no limit");
    CliRun.Result again = scheduler.cli(scheduler.admin).run("limits", "remove", "cli-partner");
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).contains("answered 404");
    assertThat(scheduler.cli(scheduler.admin).run("limits", "remove", HANDLER, "--handler").exit())
        .isZero();
    assertThat(scheduler.cli(scheduler.viewer).run("limits").out())
        .doesNotContain("cli-partner", "handler/" + HANDLER);
  }
}
