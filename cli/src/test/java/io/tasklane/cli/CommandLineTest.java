package io.tasklane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command line itself, without a scheduler: help on every command, usage errors (exit 2), an
 * endpoint nobody listens on (exit 3) and the completion script.
 */
class CommandLineTest {

  /** Every command's path from the root, e.g. [tasks, retry]. */
  private static List<List<String>> commands() {
    List<List<String>> out = new ArrayList<>();
    walk(TasklaneCli.commandLine(new TasklaneCli()).getCommandSpec(), new ArrayList<>(), out);
    return out;
  }

  private static void walk(CommandSpec spec, List<String> path, List<List<String>> out) {
    out.add(List.copyOf(path));
    for (var e : spec.subcommands().entrySet()) {
      List<String> sub = new ArrayList<>(path);
      sub.add(e.getKey());
      walk(e.getValue().getCommandSpec(), sub, out);
    }
  }

  @Test
  void everyCommandHasHelpWithExamples() {
    List<List<String>> all = commands();
    assertThat(all)
        .contains(
            List.of("tasks", "list"),
            List.of("tasks", "retry"),
            List.of("handlers", "concurrency"),
            List.of("handlers", "lanes"),
            List.of("handlers", "set-lanes"),
            List.of("schedules", "define"),
            List.of("topics", "tail"),
            List.of("workers"),
            List.of("report"),
            List.of("audit"),
            List.of("generate-completion"));
    for (List<String> path : all) {
      List<String> args = new ArrayList<>(path);
      args.add("--help");
      CliRun.Result r = new CliRun().run(args.toArray(String[]::new));
      assertThat(r.exit()).as("%s: %s", args, r).isZero();
      assertThat(r.out())
          .as("help of %s", path)
          .startsWith("Usage: tasklane" + (path.isEmpty() ? "" : " " + String.join(" ", path)))
          .contains("Examples:", "--endpoint", "--json");
      assertThat(r.out().lines())
          .as("help of %s fits 80 columns", path)
          .allMatch(l -> l.length() <= 80);
    }
  }

  @Test
  void usageErrorsExitTwoNamingTheFlagAndTheLimit() {
    CliRun api = new CliRun().api("http://127.0.0.1:1", "a-token-of-forty-characters-0123456789ab");
    CliRun.Result unknownFlag = api.run("tasks", "list", "--colour", "red");
    assertThat(unknownFlag.exit()).isEqualTo(2);
    assertThat(unknownFlag.err()).contains("Unknown option", "'--colour'");

    CliRun.Result longWait =
        api.run("tasks", "cancel", "0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10", "--wait", "1m");
    assertThat(longWait.exit()).isEqualTo(2);
    assertThat(longWait.err()).contains("--wait 1m is outside 0s to 30s");

    CliRun.Result badTime = api.run("tasks", "list", "--since", "yesterday");
    assertThat(badTime.exit()).isEqualTo(2);
    assertThat(badTime.err()).contains("--updated-from/--since 'yesterday' is neither an ISO-8601");

    CliRun.Result limit = api.run("tasks", "list", "--limit", "501");
    assertThat(limit.exit()).isEqualTo(2);
    assertThat(limit.err()).contains("--limit 501 is outside 1 to 500");

    CliRun.Result bulkWithoutFilter = api.run("tasks", "retry");
    assertThat(bulkWithoutFilter.exit()).isEqualTo(2);
    assertThat(bulkWithoutFilter.err()).contains("give at least one (--state");

    CliRun.Result triggerWithoutId = api.run("tasks", "trigger", "--state", "PENDING");
    assertThat(triggerWithoutId.exit()).isEqualTo(2);
    assertThat(triggerWithoutId.err()).contains("trigger needs a task id");

    CliRun.Result badPayload = api.run("tasks", "list", "--payload", "orderId=42");
    assertThat(badPayload.exit()).isEqualTo(2);
    assertThat(badPayload.err()).contains("--payload 'orderId=42' must be a JSON pointer");

    CliRun.Result noEndpoint = new CliRun().run("workers");
    assertThat(noEndpoint.exit()).isEqualTo(2);
    assertThat(noEndpoint.err()).contains("no endpoint: pass --endpoint");

    CliRun.Result noToken = new CliRun().run("workers", "--endpoint", "http://127.0.0.1:1");
    assertThat(noToken.exit()).isEqualTo(2);
    assertThat(noToken.err()).contains("no API token");

    CliRun.Result badEndpoint = new CliRun().run("workers", "--endpoint", "ftp://host");
    assertThat(badEndpoint.exit()).isEqualTo(2);
    assertThat(badEndpoint.err()).contains("endpoint 'ftp://host' must be an http or https URL");
  }

  @Test
  void anEndpointNobodyListensOnExitsThree() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    CliRun.Result r =
        new CliRun()
            .api("http://127.0.0.1:" + port, "a-token-of-forty-characters-0123456789ab")
            .run("tasks", "show", "0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10");
    assertThat(r.exit()).as(r.toString()).isEqualTo(3);
    assertThat(r.err()).startsWith("tasklane: cannot reach http://127.0.0.1:" + port);
  }

  @Test
  void generatesTheBashCompletionScriptAtBuildTimeAndOnDemand() throws IOException {
    CliRun.Result r = new CliRun().run("generate-completion");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("complete -F _complete_tasklane", "discard", "--from-beginning");
    Path built = Path.of("target", "tasklane_completion.bash");
    assertThat(built).exists();
    assertThat(Files.readString(built)).contains("_complete_tasklane", "--from-beginning");
  }

  @Test
  void theVersionOptionAnswers() {
    CliRun.Result r = new CliRun().run("--version");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("tasklane ");
    assertThat(CommandLine.ExitCode.USAGE).isEqualTo(2);
  }

  @Test
  void settingsComeFromFlagThenEnvironmentThenConfigFile(@TempDir Path home) throws IOException {
    // the endpoint is unreachable in every case: exit 3 says which endpoint was chosen
    Path config = home.resolve(".config/tasklane/cli.properties");
    Files.createDirectories(config.getParent());
    Path tokenFile = home.resolve("token");
    Files.writeString(tokenFile, "a-token-of-forty-characters-0123456789ab\n");
    Files.writeString(config, "endpoint=http://127.0.0.1:11\ntoken-file=" + tokenFile + "\n");
    String id = "0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10";

    assertThat(new CliRun().home(home).run("tasks", "show", id).err())
        .contains("cannot reach http://127.0.0.1:11");
    assertThat(
            new CliRun()
                .home(home)
                .env("TASKLANE_ENDPOINT", "http://127.0.0.1:12")
                .run("tasks", "show", id)
                .err())
        .contains("cannot reach http://127.0.0.1:12");
    assertThat(
            new CliRun()
                .home(home)
                .env("TASKLANE_ENDPOINT", "http://127.0.0.1:12")
                .run("tasks", "show", id, "--endpoint", "http://127.0.0.1:13")
                .err())
        .contains("cannot reach http://127.0.0.1:13");

    Files.writeString(config, "endpoint=http://127.0.0.1:11\ntokn=typo\n");
    CliRun.Result typo = new CliRun().home(home).run("tasks", "show", id);
    assertThat(typo.exit()).isEqualTo(2);
    assertThat(typo.err()).contains("unknown key 'tokn'");

    CliRun.Result missingFile =
        new CliRun().home(home).run("tasks", "show", id, "--config", home + "/nope.properties");
    assertThat(missingFile.exit()).isEqualTo(2);
    assertThat(missingFile.err()).contains("nope.properties does not exist");
  }
}
