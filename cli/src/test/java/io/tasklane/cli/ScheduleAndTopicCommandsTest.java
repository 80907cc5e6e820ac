package io.tasklane.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.ScheduleDefinition;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code schedules show|trigger} against the real scheduler app and {@code topics tail} against the
 * real broker of the shared stack.
 */
@TasklaneStack
class ScheduleAndTopicCommandsTest {
  static final String HANDLER = "cli.report";

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
  void showsASchedulesNextFiresAndTriggersAFire() throws Exception {
    ScheduleDefinition d =
        ScheduleDefinition.builder()
            .name("cli-nightly")
            .version(1)
            .handler(HANDLER)
            .cron("0 3 * * *")
            .build();
    scheduler.send(d.name(), d);
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              CliRun.Result r = scheduler.cli(scheduler.viewer).run("schedules", "show", d.name());
              assertThat(r.exit()).as(r + scheduler.logTail()).isZero();
              assertThat(r.out())
                  .containsPattern("(?m)^handler\\s+" + HANDLER + "$")
                  .containsPattern("(?m)^when\\s+cron 0 3 \\* \\* \\*")
                  .containsPattern("(?m)^next fire\\s+\\d{4}-\\d\\d-\\d\\dT03:00:00Z$");
            });

    CliRun.Result viewerTriggers =
        scheduler.cli(scheduler.viewer).run("schedules", "trigger", d.name());
    assertThat(viewerTriggers.exit()).isEqualTo(1);
    assertThat(viewerTriggers.err()).contains("answered 403");

    CliRun.Result trigger =
        scheduler
            .cli(scheduler.operator)
            .run("schedules", "trigger", d.name(), "--trigger-id", "cli-test-1", "--json");
    assertThat(trigger.exit()).as(trigger.toString()).isZero();
    String fireId = trigger.json().path("fireId").asText();
    assertThat(fireId).isNotBlank();

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              CliRun.Result r =
                  scheduler.cli(scheduler.viewer).run("schedules", "show", d.name(), "--json");
              assertThat(r.exit()).isZero();
              List<String> fires = r.json().path("fires").findValuesAsText("fireId");
              assertThat(fires).contains(fireId);
            });
    CliRun.Result table = scheduler.cli(scheduler.viewer).run("schedules", "show", d.name());
    assertThat(table.out()).contains("FIRE ID", fireId);

    CliRun.Result unknown = scheduler.cli(scheduler.viewer).run("schedules", "show", "no-such");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).contains("answered 404");
  }

  @Test
  void tailPrintsKeyPartitionOffsetTimestampHeadersAndTheDecodedValue() throws Exception {
    String handler = "cli.tail";
    scheduler.createHandlerTopic(handler);
    String topic = scheduler.topics.handler(handler);
    TaskEnvelope task = LiveScheduler.task(handler, System.currentTimeMillis(), 3);
    scheduler.sendTo(
        topic, task.id(), WireCodec.encode(task), Map.of("traceparent", "00-abc-def-01"));
    scheduler.sendTo(topic, "raw", "not json".getBytes(UTF_8), Map.of());

    CliRun.Result people =
        new CliRun()
            .env("TASKLANE_BOOTSTRAP_SERVERS", scheduler.bootstrap)
            .run("topics", "tail", topic, "--from-beginning", "--max", "2");
    assertThat(people.exit()).as(people.toString()).isZero();
    assertThat(people.out())
        .containsPattern(
            "── "
                + Pattern.quote(topic)
                + "  partition 0  offset 0  \\d{4}-[^ ]+Z  key "
                + task.id())
        .contains("   traceparent: 00-abc-def-01")
        .contains("\"id\" : \"" + task.id() + "\"")
        .contains("\"orderId\" : 42")
        .contains("offset 1", "key raw", "(not JSON, 8 bytes) not json");

    CliRun.Result json =
        new CliRun()
            .run(
                "--json",
                "topics",
                "tail",
                topic,
                "--from-beginning",
                "--max",
                "1",
                "--bootstrap-servers",
                scheduler.bootstrap);
    assertThat(json.exit()).as(json.toString()).isZero();
    JsonNode line = json.json();
    assertThat(line.path("key").asText()).isEqualTo(task.id());
    assertThat(line.path("partition").asInt()).isZero();
    assertThat(line.path("offset").asLong()).isZero();
    assertThat(line.path("headers").path("traceparent").asText()).isEqualTo("00-abc-def-01");
    assertThat(line.path("value").path("handler").asText()).isEqualTo(handler);

    CliRun.Result missing =
        new CliRun()
            .run(
                "topics",
                "tail",
                scheduler.topics.namespace() + ".no-such",
                "--max",
                "1",
                "--bootstrap-servers",
                scheduler.bootstrap);
    assertThat(missing.exit()).as(missing.toString()).isEqualTo(1);
    assertThat(missing.err()).contains("does not exist");
  }
}
