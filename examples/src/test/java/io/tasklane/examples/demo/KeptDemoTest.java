package io.tasklane.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import io.tasklane.testkit.LocalStack;
import io.tasklane.testkit.TasklaneStack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code bin/demo --keep} leaves the apps running with a live API that answers the printed tokens,
 * and {@code bin/demo --stop} stops every process it recorded (also one that already died) and
 * frees the API port.
 */
@TasklaneStack
class KeptDemoTest {
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void keepLeavesALiveApiAndStopStopsEveryProcess(LocalStack stack) throws Exception {
    Path home = Path.of("").toAbsolutePath().getParent();
    assertThat(KeptDemo.stateFile(home))
        .as("a kept demo of this checkout is running: bin/demo --stop first")
        .doesNotExist();
    DemoMain main = new DemoMain();
    new CommandLine(main)
        .parseArgs(
            "--orders",
            "60",
            "--rate",
            "30",
            "--delay",
            "PT2S",
            "--cases",
            "10",
            "--settle-timeout",
            "PT2M",
            "--keep",
            "--home",
            home.toString());
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
    List<ProcessHandle> kept = new ArrayList<>();
    try {
      try (DemoRun run = new DemoRun(main.options(), out, stack)) {
        run.execute();
      }
      String report = buffer.toString(StandardCharsets.UTF_8);
      JsonNode state = WireCodec.readTree(Files.readString(KeptDemo.stateFile(home)));
      state
          .path("processes")
          .forEach(p -> ProcessHandle.of(p.path("pid").asLong()).ifPresent(kept::add));
      assertThat(kept).as(report).hasSize(4).allMatch(ProcessHandle::isAlive);
      String api = state.path("apiUrl").asText();
      assertThat(report)
          .contains("== kept running (bin/demo --stop stops it) ==", "  API:            " + api)
          .contains("export TASKLANE_ENDPOINT=" + api, "bin/tasklane tasks list --state DEAD");
      String viewer = printed(report, "viewer token");
      String operator = printed(report, "operator token");
      assertThat(viewer).isNotEqualTo(operator).hasSizeGreaterThanOrEqualTo(40);
      assertThat(Files.readString(home.resolve("target/demo/kept/viewer.token")).strip())
          .isEqualTo(viewer);

      // the apps outlived the run's close(): the API answers the printed tokens, and only them
      String task = api + "/api/tasks/" + UUID.randomUUID();
      assertThat(get(task, viewer).statusCode()).isEqualTo(404);
      assertThat(get(task, operator).statusCode()).isEqualTo(404);
      assertThat(get(task, "not-the-token-0123456789abcdefghijklmnopq").statusCode())
          .isEqualTo(401);

      ProcessHandle late = kept.get(kept.size() - 1);
      late.destroyForcibly(); // one app died on its own before --stop
      late.onExit().join();
      ByteArrayOutputStream stopped = new ByteArrayOutputStream();
      assertThat(KeptDemo.stop(home, new PrintStream(stopped, true, StandardCharsets.UTF_8)))
          .isZero();
      String stopReport = stopped.toString(StandardCharsets.UTF_8);
      assertThat(stopReport).contains("is not running", "stopped", "kept demo stopped");
      assertThat(kept).noneMatch(ProcessHandle::isAlive);
      assertThat(KeptDemo.stateFile(home)).doesNotExist();
      assertThat(home.resolve("target/demo/kept")).doesNotExist();
      try (ServerSocket free = new ServerSocket(state.path("httpPort").asInt())) {
        assertThat(free.isBound()).isTrue();
      }
    } finally {
      kept.forEach(ProcessHandle::destroyForcibly); // the test's own processes, whatever happened
      Files.deleteIfExists(KeptDemo.stateFile(home));
    }
  }

  private static String printed(String report, String label) {
    Matcher m = Pattern.compile("  " + label + ":\\s+(\\S+)").matcher(report);
    assertThat(m.find()).as("%s in %s", label, report).isTrue();
    return m.group(1);
  }

  private static HttpResponse<String> get(String url, String token)
      throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
