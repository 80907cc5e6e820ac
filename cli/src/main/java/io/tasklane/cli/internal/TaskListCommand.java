package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tasklane tasks list}: {@code GET /api/tasks} with the search flags; {@code --all} follows
 * the cursors (each page at the first page's {@code asOf}). A table, or with {@code --json} the
 * API's answer (with {@code --all}: one answer holding every page's tasks).
 */
@Command(
    name = "list",
    description = "Search tasks (newest change first by default).",
    footerHeading = "%nExamples:%n",
    footer = {
      "  tasklane tasks list --state DEAD --handler order.cancel --since 1h",
      "  tasklane tasks list --payload /orderId=42 --sort created --order asc --all",
      "  tasklane tasks list --handler order.cancel --key order-42  # one task",
      "  tasklane tasks list --state RETRYING --json | jq -r '.tasks[].id'"
    })
public final class TaskListCommand extends ApiCommand {
  @Mixin TaskFilter filter;

  @Option(names = "--sort", paramLabel = "updated|created|due", description = "sort key")
  String sort;

  @Option(names = "--order", paramLabel = "desc|asc", description = "sort order")
  String order;

  @Option(names = "--limit", paramLabel = "N", description = "tasks per page, 1 to 500 (50)")
  Integer limit;

  @Option(names = "--cursor", description = "continue a listing (its nextCursor)")
  String cursor;

  @Option(names = "--all", description = "follow nextCursor to the last page")
  boolean all;

  @Override
  public Integer call() {
    if (limit != null && (limit < 1 || limit > 500)) {
      throw new UsageException("--limit " + limit + " is outside 1 to 500");
    }
    Map<String, String> q = filter.query(session().console().clock());
    q.put("sort", sort);
    q.put("order", order);
    q.put("limit", limit == null ? null : limit.toString());
    q.put("cursor", cursor);
    Table table = new Table("ID", "HANDLER", "KEY", "STATE", "ATTEMPT", "UPDATED", "DUE", "ERROR");
    ObjectNode merged = null;
    long scanned = 0;
    boolean partial = false;
    while (true) {
      JsonNode page = api().get("/api/tasks", q).json();
      if (!page.has("tasks") && page.has("state")) {
        return single(page, table); // the keyed task: ?handler=&key= alone
      }
      if (merged == null) {
        merged = page.deepCopy();
      } else {
        ((ArrayNode) merged.withArray("tasks")).addAll((ArrayNode) page.path("tasks"));
      }
      for (JsonNode t : page.path("tasks")) {
        table.row(
            t.path("id").asText(),
            text(t, "handler"),
            text(t, "key"),
            text(t, "state"),
            text(t, "attempt"),
            Times.iso(t, "updatedAt"),
            Times.iso(t, "dueAt"),
            text(t, "errorType"));
      }
      scanned += page.path("scanned").asLong();
      partial |= page.path("partial").asBoolean();
      String next = text(page, "nextCursor");
      if (!all || next == null) {
        merged.put("nextCursor", next);
        break;
      }
      q.put("cursor", next);
      q.put("asOf", page.path("asOf").asText());
    }
    if (json()) {
      printJson(merged);
      return Exit.OK;
    }
    table.print(out());
    int n = merged.path("tasks").size();
    out()
        .printf(
            "%d task%s as of %s (scanned %d%s)%n",
            n,
            n == 1 ? "" : "s",
            Times.iso(merged, "asOf"),
            scanned,
            partial ? "; PARTIAL: an instance did not answer" : "");
    String next = text(merged, "nextCursor");
    if (next != null) {
      out().println("more: --cursor " + next + "  (or --all)");
    }
    out().flush();
    return Exit.OK;
  }

  private int single(JsonNode view, Table table) {
    if (json()) {
      printJson(view);
      return Exit.OK;
    }
    JsonNode task = view.path("task");
    table.row(
        task.path("id").asText(),
        text(task, "handler"),
        text(task, "key"),
        text(view, "state"),
        text(view, "attempt"),
        Times.iso(view, "updatedAt"),
        Times.iso(view, "dueAt"),
        text(view.path("lastError"), "type"));
    table.print(out());
    return Exit.OK;
  }
}
