package io.tasklane.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The whole pipeline as a user deploys it: relay, scheduler and two workers as separate JVMs on the
 * shared real stack, the demo's order service enqueueing in JPA transactions. The mixed workload
 * (about 1,900 tasks: immediate, delayed, cancelled before due, cancelled after they ran, retried,
 * dead, keyed duplicates, dependencies, a handler deployed late) must reach every expected terminal
 * state with every effect row exactly once, while three recurring schedules (a 1-second sweep, a
 * 3-shard broadcast and its child) fire once per instant, never early.
 */
@TasklaneStack
class PipelineEndToEndTest {

  @Test
  void mixedWorkloadReachesEveryExpectedStateWithEachEffectOnce(LocalStack stack) throws Exception {
    Path home = Path.of("").toAbsolutePath().getParent();
    DemoMain main = new DemoMain();
    new CommandLine(main)
        .parseArgs(
            "--orders", "800",
            "--rate", "100",
            "--delay", "PT4S",
            "--pay-ratio", "0.5",
            "--cases", "40",
            "--settle-timeout", "PT3M",
            "--home", home.toString());
    DemoOptions options = main.options();
    assertThat(options.unpaidTimeout()).isEqualTo(Duration.ofSeconds(4));
    assertThat(options.home()).isEqualTo(home);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
    boolean passed;
    try (DemoRun run = new DemoRun(options, out, stack)) {
      passed = run.execute();
    }
    String report = buffer.toString(StandardCharsets.UTF_8).replace('\r', '\n');
    System.out.println(report);
    assertThat(passed).as(report).isTrue();
    assertThat(report)
        .contains("RESULT: PASS")
        .contains("the 1-second schedule fired every second while defined")
        .contains("schedule demo.sweep (every 1s)")
        .doesNotContain("FAIL ");
  }
}
