package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code tasklane batches show ID}: a batch's members by state, progress and callbacks through
 * {@code /api/batches/{id}}.
 */
@Command(
    name = "batches",
    description = "Show a batch of tasks: members by state, progress and its callbacks.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  tasklane batches show invoices-2026-11",
      "  tasklane batches show invoices-2026-11 --json | jq .progress"
    })
public final class BatchesCommand extends ApiCommand {
  @Override
  public Integer call() {
    throw new UsageException("name a subcommand: tasklane batches show ID");
  }

  @Command(
      name = "show",
      description = "Show one batch.",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane batches show invoices-2026-11"})
  int show(@Parameters(paramLabel = "ID") String id) {
    ApiClient.Reply r = api().get("/api/batches/" + ApiClient.segment(id), Map.of());
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    JsonNode b = r.json();
    out().println("batch      " + text(b, "id"));
    out().println("state      " + text(b, "state") + " (" + text(b, "progress") + "%)");
    out()
        .println(
            "members    "
                + text(b, "total")
                + " total, "
                + text(b, "pending")
                + " pending, "
                + text(b, "succeeded")
                + " succeeded, "
                + text(b, "dead")
                + " dead, "
                + text(b, "cancelled")
                + " cancelled");
    line("created", text(b, "createdAtIso"));
    line("sealed", text(b, "sealedAtIso"));
    line("completed", text(b, "completedAtIso"));
    line("succeeded", text(b, "succeededAtIso"));
    callback("onSuccess", text(b, "onSuccess"), text(b, "successTask"));
    callback("onComplete", text(b, "onComplete"), text(b, "completeTask"));
    String late = text(b, "lateParts");
    if (late != null && !"0".equals(late)) {
      line("late parts", late + " (written after the seal; their tasks ran outside the batch)");
    }
    out().flush();
    return Exit.OK;
  }

  private void line(String name, String value) {
    if (value != null) {
      out().println(String.format("%-10s %s", name, value));
    }
  }

  private void callback(String name, String handler, String task) {
    if (handler != null) {
      line(name, handler + (task == null ? " (not yet)" : " -> task " + task));
    }
  }
}
