package io.tasklane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tasks list} (GET /api/tasks) and {@code tasks logs} against the real scheduler app. */
@TasklaneStack
class TaskSearchCommandsTest {
  static final String HANDLER = "cli.search";

  @TempDir static Path stateDir;
  static LiveScheduler scheduler;

  @BeforeAll
  static void start(LocalStack stack) throws Exception {
    scheduler = new LiveScheduler(stack, stateDir);
    scheduler.createHandlerTopic(HANDLER);
  }

  @AfterAll
  static void stop() {
    if (scheduler != null) {
      scheduler.close();
    }
  }

  @Test
  void listFiltersPagesWithCursorsAndPrintsJsonForScripts() throws Exception {
    String handler = HANDLER + ".list"; // its own handler: the counts below are exact
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      TaskEnvelope t = LiveScheduler.task(handler, System.currentTimeMillis() + 3_600_000, 5);
      scheduler.send(t.routingKey(), t);
      ids.add(t.id());
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              CliRun.Result r =
                  scheduler
                      .cli(scheduler.viewer)
                      .run("tasks", "list", "--handler", handler, "--state", "PENDING", "--json");
              assertThat(r.exit()).as(r.toString()).isZero();
              assertThat(r.json().path("tasks").findValuesAsText("id")).containsAll(ids);
            });

    CliRun.Result table =
        scheduler.cli(scheduler.viewer).run("tasks", "list", "--handler", handler, "--since", "1h");
    assertThat(table.exit()).isZero();
    assertThat(table.out())
        .startsWith("ID")
        .contains("HANDLER", "STATE", ids.get(0), "PENDING")
        .containsPattern("(?m)^3 tasks as of \\d{4}-");

    CliRun.Result onePage =
        scheduler.cli(scheduler.viewer).run("tasks", "list", "--handler", handler, "--limit", "1");
    assertThat(onePage.out()).contains("more: --cursor ");

    CliRun.Result all =
        scheduler
            .cli(scheduler.viewer)
            .run("tasks", "list", "--handler", handler, "--limit", "1", "--all", "--json");
    assertThat(all.exit()).isZero();
    JsonNode merged = all.json();
    assertThat(merged.path("tasks").findValuesAsText("id"))
        .containsExactlyInAnyOrderElementsOf(ids);
    assertThat(merged.path("nextCursor").isNull()).isTrue();

    CliRun.Result viewerPayload =
        scheduler
            .cli(scheduler.viewer)
            .run("tasks", "list", "--handler", handler, "--payload", "/orderId=42");
    assertThat(viewerPayload.exit()).isEqualTo(1);
    assertThat(viewerPayload.err()).contains("answered 403", "cannot search payloads");
    CliRun.Result payload =
        scheduler
            .cli(scheduler.operator)
            .run("tasks", "list", "--handler", handler, "--payload", "/orderId=42", "--json");
    assertThat(payload.json().path("tasks").size()).isEqualTo(3);
    CliRun.Result noMatch =
        scheduler
            .cli(scheduler.operator)
            .run("tasks", "list", "--handler", handler, "--payload", "/orderId=43", "--json");
    assertThat(noMatch.json().path("tasks").size()).isZero();

    CliRun.Result badState =
        scheduler.cli(scheduler.viewer).run("tasks", "list", "--state", "SLEEPING");
    assertThat(badState.exit()).isEqualTo(1);
    assertThat(badState.err()).contains("answered 400").contains("state");
  }

  @Test
  void logsOfATaskWithoutLinesIsAnEmptyListing() throws Exception {
    TaskEnvelope t = LiveScheduler.task(HANDLER, System.currentTimeMillis() + 3_600_000, 5);
    scheduler.send(t.routingKey(), t);
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () ->
                assertThat(scheduler.cli(scheduler.viewer).run("tasks", "show", t.id()).exit())
                    .isZero());
    CliRun.Result r = scheduler.cli(scheduler.viewer).run("tasks", "logs", t.id(), "--json");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.json().path("id").asText()).isEqualTo(t.id());
    assertThat(r.json().path("lines").isArray()).isTrue();
    assertThat(r.json().path("lines").size()).isZero();
    assertThat(r.json().has("progress")).as("no progress came").isFalse();

    long at = System.currentTimeMillis();
    scheduler.sendTo(
        scheduler.topics.logs(),
        t.id(),
        io.tasklane.core.WireCodec.encode(
            io.tasklane.core.TaskLogLine.progress(t.id(), 1, at, 40, "page 4 of 10", "w1")),
        java.util.Map.of());
    scheduler.sendTo( // an older update that arrives late does not replace it
        scheduler.topics.logs(),
        t.id(),
        io.tasklane.core.WireCodec.encode(
            io.tasklane.core.TaskLogLine.progress(t.id(), 1, at - 5_000, 10, "page 1", "w1")),
        java.util.Map.of());
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () ->
                assertThat(scheduler.cli(scheduler.operator).run("tasks", "show", t.id()).out())
                    .containsPattern("(?m)^progress\\s+40% · page 4 of 10 \\(attempt 1\\)$"));
    CliRun.Result logs = scheduler.cli(scheduler.operator).run("tasks", "logs", t.id());
    assertThat(logs.out()).startsWith("progress 40% · page 4 of 10 (attempt 1)");
    JsonNode progress =
        scheduler
            .cli(scheduler.operator)
            .run("tasks", "logs", t.id(), "--json")
            .json()
            .path("progress");
    assertThat(progress.path("percent").asInt()).isEqualTo(40);
    assertThat(progress.path("atIso").asText()).endsWith("Z");
    assertThat(
            scheduler
                .cli(scheduler.viewer)
                .run("tasks", "logs", t.id(), "--json")
                .json()
                .path("progress")
                .path("message")
                .asText())
        .as("a viewer that sees no payloads sees no progress text")
        .isEqualTo("***");
  }
}
