package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code tasklane handlers [list|show|pause|resume|concurrency]}: {@code /api/handlers}. Without a
 * subcommand it lists the handlers.
 */
@Command(
    name = "handlers",
    description = "List handlers; pause, resume or size one (pause/resume/concurrency: admin).",
    footerHeading = "%nExamples:%n",
    footer = {
      "  tasklane handlers",
      "  tasklane handlers show order.cancel",
      "  tasklane handlers pause order.cancel",
      "  tasklane handlers concurrency order.cancel 8"
    })
public final class HandlersCommand extends ApiCommand {
  @Override
  public Integer call() {
    return list();
  }

  @Command(
      name = "list",
      description = "List the handlers the scheduler knows.",
      footerHeading = "%nExamples:%n",
      footer = {
        "  tasklane handlers list",
        "  tasklane handlers list --json | jq '.handlers[].name'"
      })
  int list() {
    ApiClient.Reply r = api().get("/api/handlers", Map.of());
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    Table t = table();
    for (JsonNode h : r.json().path("handlers")) {
      row(t, h);
    }
    t.print(out());
    return Exit.OK;
  }

  @Command(
      name = "show",
      description = "Show one handler.",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane handlers show order.cancel"})
  int show(@Parameters(paramLabel = "HANDLER") String name) {
    ApiClient.Reply r = api().get("/api/handlers/" + ApiClient.segment(name), Map.of());
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    JsonNode h = r.json();
    Table t = table();
    row(t, h);
    t.print(out());
    StringBuilder counts = new StringBuilder();
    h.path("counts")
        .fields()
        .forEachRemaining(
            c -> {
              if (c.getValue().asLong() > 0) {
                counts.append(counts.length() == 0 ? "" : ", ");
                counts.append(c.getKey()).append(' ').append(c.getValue().asLong());
              }
            });
    out().println("  tasks " + (counts.length() == 0 ? "none" : counts));
    JsonNode recent = h.path("recent");
    if (!recent.isMissingNode()) {
      out()
          .println(
              "  since "
                  + text(recent, "sinceIso")
                  + ": succeeded "
                  + text(recent, "succeeded")
                  + ", failed "
                  + text(recent, "failed")
                  + ", dead "
                  + text(recent, "dead")
                  + "; run time p50/p99 "
                  + ms(recent.path("runTimeMs"))
                  + "; lateness p50/p99 "
                  + ms(recent.path("latenessMs")));
    }
    for (JsonNode w : h.path("workers")) {
      out().println("  worker " + w.asText());
    }
    out().flush();
    return Exit.OK;
  }

  @Command(
      name = "pause",
      description = "Stop dispatching a handler's tasks (they wait, nothing is lost).",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane handlers pause order.cancel"})
  int pause(@Parameters(paramLabel = "HANDLER") String name) {
    return post(name, "pause", Map.of());
  }

  @Command(
      name = "resume",
      description = "Dispatch a paused handler's tasks again.",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane handlers resume order.cancel"})
  int resume(@Parameters(paramLabel = "HANDLER") String name) {
    return post(name, "resume", Map.of());
  }

  @Command(
      name = "concurrency",
      description = "Set how many of a handler's tasks run at once.",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane handlers concurrency order.cancel 8"})
  int concurrency(
      @Parameters(paramLabel = "HANDLER") String name, @Parameters(paramLabel = "N") int value) {
    if (value < 1) {
      throw new UsageException("concurrency N " + value + " must be at least 1");
    }
    return post(name, "concurrency", Map.of("value", Integer.toString(value)));
  }

  private int post(String name, String verb, Map<String, String> q) {
    ApiClient.Reply r =
        api().post("/api/handlers/" + ApiClient.segment(name) + "/" + verb, q, null);
    if (json()) {
      printJson(r.body());
    } else {
      out().println(verb + " " + name + ": done");
      out().flush();
    }
    return Exit.OK;
  }

  private static Table table() {
    return new Table(
        "NAME",
        "PAUSED",
        "CONCURRENCY",
        "WORKERS",
        "IN-FLIGHT",
        "LAG",
        "BACKLOG",
        "DONE/MIN",
        "FAILED/MIN",
        "RUN-P99");
  }

  private static void row(Table t, JsonNode h) {
    JsonNode recent = h.path("recent");
    JsonNode p99 = recent.path("runTimeMs").path("p99");
    t.row(
        text(h, "name"),
        h.path("paused").asBoolean() ? "paused" : "no",
        text(h, "concurrency"),
        h.path("workers").size(),
        text(h, "inFlight"),
        text(h, "lag"),
        text(h, "backlog"),
        text(recent, "succeededPerMin"),
        text(recent, "failedPerMin"),
        p99.isNumber() ? p99.asLong() + "ms" : "-");
  }

  /** {@code p50/p99} in milliseconds, or {@code -} when nothing was measured. */
  private static String ms(JsonNode percentiles) {
    JsonNode p50 = percentiles.path("p50");
    JsonNode p99 = percentiles.path("p99");
    return p50.isNumber() ? p50.asLong() + "/" + p99.asLong() + " ms" : "-";
  }
}
