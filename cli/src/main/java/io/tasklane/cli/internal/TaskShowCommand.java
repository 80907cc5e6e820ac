package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tasklane tasks show <id>}: {@code GET /api/tasks/{id}}, its fields and attempts. */
@Command(
    name = "show",
    description = "Show one task: state, times, last error and its attempts.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  tasklane tasks show 0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10",
      "  tasklane tasks show 0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10 --routing-key c-7",
      "  tasklane tasks show 0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10 --json | jq .state"
    })
public final class TaskShowCommand extends ApiCommand {
  @Parameters(paramLabel = "ID", description = "the task id")
  String id;

  @Option(
      names = "--routing-key",
      paramLabel = "KEY",
      description = "the task's ordering key, when it was enqueued with one")
  String routingKey;

  @Override
  public Integer call() {
    ApiClient.Reply r = fetch(api(), id, routingKey);
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    print(out(), r.json(), progress(api(), id));
    return Exit.OK;
  }

  /** {@code GET /api/tasks/{id}} (a 404 throws {@link ApiException}). */
  static ApiClient.Reply fetch(ApiClient api, String id, String routingKey) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("routingKey", routingKey);
    return api.get("/api/tasks/" + ApiClient.segment(id), q);
  }

  /**
   * The handler's latest progress update ({@code GET /api/tasks/{id}/logs}), or a missing node when
   * none came or the logs cannot be read.
   */
  static JsonNode progress(ApiClient api, String id) {
    try {
      return api.get("/api/tasks/" + ApiClient.segment(id) + "/logs", Map.of())
          .json()
          .path("progress");
    } catch (RuntimeException e) {
      return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
  }

  /** One line of a progress update: {@code 40% · message (attempt 2)}. */
  static String progressText(JsonNode p) {
    String message = text(p, "message");
    return p.path("percent").asInt()
        + "%"
        + (message == null ? "" : " · " + message)
        + " (attempt "
        + p.path("attempt").asInt()
        + ")";
  }

  static void print(PrintWriter out, JsonNode view, JsonNode progress) {
    JsonNode task = view.path("task");
    field(out, "id", task.path("id").asText());
    field(out, "handler", text(task, "handler"));
    field(out, "key", text(task, "key"));
    field(out, "state", text(view, "state"));
    field(
        out,
        "attempt",
        view.path("attempt").asInt() + " of " + task.path("maxAttempts").asText("?"));
    field(out, "ordering key", text(task, "orderingKey"));
    field(out, "concurrency key", text(task.path("options"), "concurrencyKey"));
    JsonNode priority = task.path("options").path("priority");
    field(out, "priority", priority.isInt() ? priority.asText() : "5 (default)");
    field(out, "unique until", text(task.path("options"), "uniqueUntil"));
    if (progress.isObject()) {
      field(out, "progress", progressText(progress));
    }
    field(out, "created", Times.iso(task, "createdAt"));
    field(out, "due", Times.iso(view, "dueAt"));
    field(out, "updated", Times.iso(view, "updatedAt"));
    field(out, "finished", Times.iso(view, "finishedAt"));
    field(out, "reason", text(view, "reason"));
    JsonNode err = view.path("lastError");
    if (err.isObject()) {
      field(out, "last error", text(err, "type") + ": " + text(err, "message"));
    }
    if (view.path("waitingOn").size() > 0) {
      field(out, "waiting on", view.path("waitingOn").toString());
    }
    String payload = WireCodec.encodeToString(task.path("payload"));
    field(out, "payload", payload.length() > 200 ? payload.substring(0, 199) + "…" : payload);
    if (view.path("history").size() > 0) {
      out.println();
      Table t = new Table("ATTEMPT", "DISPATCHED", "ENDED", "OUTCOME", "WORKER", "ERROR");
      for (JsonNode h : view.path("history")) {
        t.row(
            h.path("attempt").asText(),
            Times.iso(h, "dispatchedAt"),
            Times.iso(h, "endedAt"),
            text(h, "outcome"),
            text(h, "worker"),
            text(h, "error"));
      }
      t.print(out);
    }
    out.flush();
  }

  private static void field(PrintWriter out, String name, String value) {
    if (value != null && !value.equals("-")) {
      out.printf("%-16s %s%n", name, value);
    }
  }
}
