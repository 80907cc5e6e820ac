package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tasklane batches [list|show ID]}: the batches, a page at a time, through {@code
 * /api/batches}, and a batch's members by state, progress and callbacks through {@code
 * /api/batches/{id}}. Without a subcommand it lists the batches.
 */
@Command(
    name = "batches",
    description = "List batches of tasks, or show one: members by state, progress, callbacks.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  tasklane batches list --state RUNNING",
      "  tasklane batches show invoices-2026-11",
      "  tasklane batches show invoices-2026-11 --json | jq .progress"
    })
public final class BatchesCommand extends ApiCommand {
  @Override
  public Integer call() {
    return list(null, null, null, false);
  }

  @Command(
      name = "list",
      description = "List the batches in id order.",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane batches list", "  tasklane batches list --state RUNNING --all --json"})
  int list(
      @Option(
              names = "--state",
              paramLabel = "STATE",
              description = "only OPEN, RUNNING, COMPLETE or SUCCEEDED batches")
          String state,
      @Option(names = "--limit", paramLabel = "N", description = "batches per page (1 to 500)")
          Integer limit,
      @Option(names = "--cursor", description = "continue a listing") String cursor,
      @Option(names = "--all", description = "follow nextCursor to the last page") boolean all) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("state", state);
    q.put("limit", limit == null ? null : limit.toString());
    q.put("cursor", cursor);
    Table t = new Table("BATCH", "STATE", "PROGRESS", "TOTAL", "PENDING", "DEAD", "CREATED");
    var merged = WireCodec.mapper().createObjectNode();
    var rows = merged.putArray("batches");
    String next;
    boolean partial = false;
    do {
      JsonNode page = api().get("/api/batches", q).json();
      for (JsonNode b : page.path("batches")) {
        rows.add(b);
        t.row(
            text(b, "id"),
            text(b, "state"),
            text(b, "progress") + "%",
            text(b, "total"),
            text(b, "pending"),
            text(b, "dead"),
            text(b, "createdAtIso"));
      }
      partial |= page.path("partial").asBoolean();
      next = text(page, "nextCursor");
      q.put("cursor", next);
    } while (all && next != null);
    merged.put("nextCursor", next);
    merged.put("partial", partial);
    if (json()) {
      printJson(merged);
      return Exit.OK;
    }
    if (partial) {
      out().println("PARTIAL: an instance did not answer; its batches are missing");
    }
    if (t.isEmpty()) {
      out().println(state == null ? "no batches" : "no " + state + " batches");
    } else {
      t.print(out());
    }
    if (next != null) {
      out().println("more: --cursor " + next + "  (or --all)");
    }
    out().flush();
    return Exit.OK;
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
    callback(
        "onSuccess",
        text(b, "onSuccess"),
        text(b, "successTask"),
        text(b, "successTaskRoutingKey"));
    callback(
        "onComplete",
        text(b, "onComplete"),
        text(b, "completeTask"),
        text(b, "completeTaskRoutingKey"));
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

  private void callback(String name, String handler, String task, String routingKey) {
    if (handler != null) {
      line(
          name,
          handler
              + (task == null ? " (not yet)" : " -> task " + task)
              + (routingKey == null ? "" : " --routing-key " + routingKey));
    }
  }
}
