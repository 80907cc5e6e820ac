package io.tasklane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

/**
 * The bulk form of {@code tasks retry}: lists first, asks for confirmation with the count, posts
 * the job (admin) and follows it until DONE.
 */
@TasklaneStack
class BulkCommandsTest {
  static final String HANDLER = "cli.bulk";

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
  void retryOfEveryDeadTaskAsksWithTheCountAndFollowsTheJob() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      TaskEnvelope t = LiveScheduler.task(HANDLER, System.currentTimeMillis(), 1);
      scheduler.send(t.routingKey(), t);
      ids.add(t.id());
    }
    for (String id : ids) {
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () ->
                  assertThat(
                          scheduler
                              .cli(scheduler.viewer)
                              .run("tasks", "show", id, "--json")
                              .json()
                              .path("state")
                              .asText())
                      .isEqualTo("DEAD"));
    }

    CliRun.Result declined =
        scheduler
            .cli(scheduler.admin)
            .stdin("n\n")
            .run("tasks", "retry", "--state", "DEAD", "--handler", HANDLER);
    assertThat(declined.exit()).as(declined.toString()).isEqualTo(5);
    assertThat(declined.err())
        .contains("retry-dead 3 tasks matching state=DEAD handler=" + HANDLER + "? [y/N]")
        .contains("not confirmed: nothing done");

    CliRun.Result operator =
        scheduler
            .cli(scheduler.operator)
            .run("tasks", "retry", "--state", "DEAD", "--handler", HANDLER, "--yes");
    assertThat(operator.exit()).isEqualTo(1);
    assertThat(operator.err()).contains("answered 403");

    CliRun.Result confirmed =
        scheduler
            .cli(scheduler.admin)
            .stdin("y\n")
            .run("tasks", "retry", "--state", "DEAD", "--handler", HANDLER);
    assertThat(confirmed.exit()).as(confirmed.toString()).isZero();
    assertThat(confirmed.out())
        .containsPattern("job \\S+ DONE: matched 3, applied 3, ignored 0, failed 0");

    CliRun.Result none =
        scheduler
            .cli(scheduler.admin)
            .run("tasks", "discard", "--state", "DEAD", "--handler", "cli.nothing", "--yes");
    assertThat(none.exit()).isZero();
    assertThat(none.err()).contains("no task matches state=DEAD handler=cli.nothing");
  }
}
