package io.tasklane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tasks show|cancel|retry|discard|trigger} against the real scheduler app on the shared
 * stack: tables for people, {@code --json} for scripts, the outcome of each action and its exit
 * code, and the API's errors (404, 401, 403) as exit 1 with the API's message on stderr.
 */
@TasklaneStack
class TaskCommandsTest {
  static final String HANDLER = "cli.orders";
  static final long HOUR = 3_600_000;

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

  /** A task due in an hour, once the scheduler shows it PENDING. */
  private static TaskEnvelope pendingTask() throws Exception {
    return send(LiveScheduler.task(HANDLER, System.currentTimeMillis() + HOUR, 5));
  }

  private static TaskEnvelope send(TaskEnvelope task) throws Exception {
    scheduler.send(task.routingKey(), task);
    awaitState(task.id(), "PENDING");
    return task;
  }

  private static void awaitState(String id, String state) {
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              CliRun.Result r = scheduler.cli(scheduler.viewer).run("tasks", "show", id, "--json");
              assertThat(r.exit()).as(r + scheduler.logTail()).isZero();
              assertThat(r.json().path("state").asText()).isEqualTo(state);
            });
  }

  @Test
  void showPrintsATableForPeopleAndTheApiJsonForScripts() throws Exception {
    TaskEnvelope task = pendingTask();

    CliRun.Result hidden = scheduler.cli(scheduler.viewer).run("tasks", "show", task.id());
    assertThat(hidden.out()).containsPattern("(?m)^payload\\s+\"\\*\\*\\*\"$");
    CliRun.Result table = scheduler.cli(scheduler.operator).run("tasks", "show", task.id());
    assertThat(table.exit()).as(table.toString()).isZero();
    assertThat(table.out())
        .containsPattern("(?m)^id\\s+" + task.id() + "$")
        .containsPattern("(?m)^handler\\s+" + HANDLER + "$")
        .containsPattern("(?m)^state\\s+PENDING$")
        .containsPattern("(?m)^due\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$")
        .containsPattern("(?m)^priority\\s+5 \\(default\\)$")
        .contains("{\"orderId\":42}");

    TaskEnvelope urgent =
        send(
            LiveScheduler.task(HANDLER, System.currentTimeMillis() + HOUR, 5).toBuilder()
                .key("order-42")
                .options(
                    io.tasklane.core.TaskOptions.builder()
                        .priority(8)
                        .uniqueUntil(io.tasklane.core.UniqueUntil.END)
                        .build())
                .build());
    CliRun.Result shown = scheduler.cli(scheduler.viewer).run("tasks", "show", urgent.id());
    assertThat(shown.out())
        .containsPattern("(?m)^priority\\s+8$")
        .containsPattern("(?m)^unique until\\s+end$");
    assertThat(table.out()).doesNotContain("unique until");

    CliRun.Result json = scheduler.cli(scheduler.viewer).run("--json", "tasks", "show", task.id());
    assertThat(json.exit()).isZero();
    JsonNode view = json.json();
    assertThat(view.path("task").path("id").asText()).isEqualTo(task.id());
    assertThat(view.path("dueAt").asLong()).isEqualTo(task.dueAt());
    assertThat(view.path("dueAtIso").asText()).endsWith("Z");
  }

  @Test
  void triggerAndCancelAreAppliedAndARetryOfACancelledTaskExitsFive() throws Exception {
    TaskEnvelope task = pendingTask();

    CliRun.Result trigger =
        scheduler.cli(scheduler.operator).run("tasks", "trigger", task.id(), "--wait", "20s");
    assertThat(trigger.exit()).as(trigger.toString()).isZero();
    assertThat(trigger.out()).startsWith("trigger " + task.id() + ": applied, state ");

    CliRun.Result cancel =
        scheduler
            .cli(scheduler.operator)
            .run("tasks", "cancel", task.id(), "--reason", "order paid", "--json");
    assertThat(cancel.exit()).as(cancel.toString()).isZero();
    JsonNode answer = cancel.json();
    assertThat(answer.path("id").asText()).isEqualTo(task.id());
    assertThat(answer.path("action").asText()).isEqualTo("cancel");
    assertThat(answer.path("outcome").asText()).isEqualTo("applied");
    assertThat(answer.path("state").asText()).isEqualTo("CANCELLED");

    CliRun.Result retry =
        scheduler.cli(scheduler.operator).run("tasks", "retry", task.id(), "--wait", "1s");
    assertThat(retry.exit()).as(retry.toString()).isEqualTo(5);
    assertThat(retry.out()).contains(": ignored (already CANCELLED)", "state CANCELLED");
  }

  @Test
  void retryRevivesADeadTaskAndDiscardPurgesOne() throws Exception {
    // due now, one attempt of 1 s that no worker answers: DEAD after its deadline
    TaskEnvelope revived = LiveScheduler.task(HANDLER, System.currentTimeMillis(), 1);
    TaskEnvelope purged = LiveScheduler.task(HANDLER, System.currentTimeMillis(), 1);
    scheduler.send(revived.routingKey(), revived);
    scheduler.send(purged.routingKey(), purged);
    awaitState(revived.id(), "DEAD");
    awaitState(purged.id(), "DEAD");

    CliRun.Result retry =
        scheduler.cli(scheduler.operator).run("tasks", "retry", revived.id(), "--wait", "20s");
    assertThat(retry.exit()).as(retry.toString()).isZero();
    assertThat(retry.out()).startsWith("retry-dead " + revived.id() + ": applied, state ");
    assertThat(retry.out()).doesNotContain("state DEAD");

    CliRun.Result discard =
        scheduler.cli(scheduler.operator).run("tasks", "discard", purged.id(), "--wait", "20s");
    assertThat(discard.exit()).as(discard.toString()).isZero();
    assertThat(discard.out()).contains("applied");
    CliRun.Result gone = scheduler.cli(scheduler.viewer).run("tasks", "show", purged.id());
    assertThat(gone.exit()).isEqualTo(1);
  }

  @Test
  void apiErrorsExitOneWithTheApiMessageOnStderr() throws Exception {
    String unknown = java.util.UUID.randomUUID().toString();
    CliRun.Result notFound = scheduler.cli(scheduler.viewer).run("tasks", "show", unknown);
    assertThat(notFound.exit()).as(notFound.toString()).isEqualTo(1);
    assertThat(notFound.err()).contains("answered 404").contains(unknown);
    assertThat(notFound.out()).isEmpty();

    CliRun.Result badToken =
        scheduler.cli("not-a-configured-token-0123456789").run("tasks", "show", unknown);
    assertThat(badToken.exit()).as(badToken.toString()).isEqualTo(1);
    assertThat(badToken.err())
        .contains("answered 401")
        .contains("the bearer token is not one of tasklane.scheduler.api.tokens");

    TaskEnvelope task = pendingTask();
    CliRun.Result viewerCancels = scheduler.cli(scheduler.viewer).run("tasks", "cancel", task.id());
    assertThat(viewerCancels.exit()).as(viewerCancels.toString()).isEqualTo(1);
    assertThat(viewerCancels.err()).contains("answered 403").contains("needs a token with role");
    awaitState(task.id(), "PENDING");
  }
}
