package io.tasklane.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.testkit.JavaProcess;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scheduler app refuses unsafe settings before it does anything else. */
@TasklaneStack
class SchedulerStartupTest {
  @TempDir Path dir;

  @Test
  void aPlaceholderTokenStopsTheStartAndTheFirstLineSaysHowToMakeOne(LocalStack stack)
      throws Exception {
    String placeholder = "change-me-change-me-change-me";
    try (JavaProcess p =
        SchedulerProcess.start(
            stack,
            StackSupport.uniqueTopics(),
            dir,
            "weak",
            SchedulerProcess.freePort(),
            Map.of("api.tokens", "ops:" + placeholder + ":operator"))) {
      assertThat(p.waitFor(Duration.ofSeconds(60))).as(p.logTail(40)).isEqualTo(1);
      List<String> lines =
          Files.readAllLines(p.logFile()).stream().filter(l -> !l.isBlank()).toList();
      assertThat(lines.get(0))
          .as(p.logTail(40))
          .isEqualTo(
              "tasklane scheduler failed to start: tasklane.scheduler.api.tokens: token 'ops' is"
                  + " refused, make one with: openssl rand -base64 32 (it looks like a placeholder"
                  + " (contains 'change-me'); the syntax is name:token:role)");
      assertThat(String.join("\n", lines)).doesNotContain(placeholder);
    }
  }

  @Test
  void aMissingTokenStopsTheStartAndTheFirstLineShowsTheSyntaxAndTheLengthRule(LocalStack stack)
      throws Exception {
    try (JavaProcess p =
        SchedulerProcess.start(
            stack,
            StackSupport.uniqueTopics(),
            dir,
            "no-token",
            SchedulerProcess.freePort(),
            Map.of("api.tokens", ""))) {
      assertThat(p.waitFor(Duration.ofSeconds(60))).as(p.logTail(40)).isEqualTo(1);
      List<String> lines =
          Files.readAllLines(p.logFile()).stream().filter(l -> !l.isBlank()).toList();
      assertThat(lines.get(0))
          .as(p.logTail(40))
          .isEqualTo(
              "tasklane scheduler failed to start: tasklane.scheduler.api.tokens: needs at least"
                  + " one token, the syntax is name:token:role (role viewer, operator or admin,"
                  + " several separated by commas), each token at least 24 characters and no placeholder,"
                  + " make one with: openssl rand -base64 32; every endpoint but /health requires"
                  + " one");
    }
  }
}
