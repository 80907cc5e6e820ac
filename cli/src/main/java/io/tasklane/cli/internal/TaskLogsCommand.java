package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tasklane tasks logs <id>}: {@code GET /api/tasks/{id}/logs}, the handler's lines. */
@Command(
    name = "logs",
    description = "Print the log lines a task's handler wrote (all attempts, or one).",
    footerHeading = "%nExamples:%n",
    footer = {
      "  tasklane tasks logs 0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10",
      "  tasklane tasks logs 0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10 --attempt 2"
    })
public final class TaskLogsCommand extends ApiCommand {
  @Parameters(paramLabel = "ID", description = "the task id")
  String id;

  @Option(names = "--attempt", paramLabel = "N", description = "only this attempt's lines")
  Integer attempt;

  @Override
  public Integer call() {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("attempt", attempt == null ? null : attempt.toString());
    ApiClient.Reply r = api().get("/api/tasks/" + ApiClient.segment(id) + "/logs", q);
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    JsonNode j = r.json();
    if (j.path("progress").isObject()) {
      out().println("progress " + TaskShowCommand.progressText(j.path("progress")));
    }
    for (JsonNode line : j.path("lines")) {
      out()
          .printf(
              "%s  #%s  %-5s %s%n",
              Times.iso(line, "at"),
              line.path("attempt").asText(),
              line.path("level").asText(),
              line.path("message").asText());
    }
    if (j.path("truncated").asBoolean()) {
      out().println("(truncated: older lines are no longer kept)");
    }
    out().flush();
    return Exit.OK;
  }
}
