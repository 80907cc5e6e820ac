package io.tasklane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tasklane.core.TaskEnvelope;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code handlers}, {@code workers}, {@code schedules list|define|pause|resume|delete}, {@code
 * report} and {@code audit} against the real scheduler app.
 */
@TasklaneStack
class HandlerScheduleAdminCommandsTest {
  static final String HANDLER = "cli.admin";
  static final String HELD = "cli.held";

  @TempDir static Path stateDir;
  @TempDir static Path files;
  static LiveScheduler scheduler;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    scheduler = new LiveScheduler(stack, stateDir);
    scheduler.createHandlerTopic(HANDLER);
    scheduler.createHandlerTopic(HELD);
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
}
