package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code tasklane workers}: {@code GET /api/workers}, one row per worker and handler. */
@Command(
    name = "workers",
    description = "List the workers, their handlers and what they run.",
    footerHeading = "%nExamples:%n",
    footer = {"  tasklane workers", "  tasklane workers --json | jq '.workers[] | select(.live)'"})
public final class WorkersCommand extends ApiCommand {
  @Override
  public Integer call() {
    ApiClient.Reply r = api().get("/api/workers", Map.of());
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    Table t =
        new Table(
            "ID",
            "HOST",
            "PID",
            "VERSION",
            "STARTED",
            "LAST SEEN",
            "LIVE",
            "HANDLER",
            "CONC",
            "IN-FLIGHT");
    for (JsonNode w : r.json().path("workers")) {
      JsonNode handlers = w.path("handlers");
      if (handlers.isEmpty()) {
        t.row(cells(w, null));
      }
      for (JsonNode h : handlers) {
        t.row(cells(w, h));
      }
    }
    t.print(out());
    return Exit.OK;
  }

  private static Object[] cells(JsonNode w, JsonNode h) {
    return new Object[] {
      text(w, "id"),
      text(w, "host"),
      text(w, "pid"),
      text(w, "version"),
      Times.iso(w, "startedAt"),
      Times.iso(w, "lastSeenAt"),
      w.path("live").asBoolean() ? "live" : "gone",
      h == null ? null : text(h, "name"),
      h == null ? null : text(h, "concurrency"),
      h == null ? null : text(h, "inFlight")
    };
  }
}
