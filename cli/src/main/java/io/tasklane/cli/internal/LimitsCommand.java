package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tasklane limits [list|set|remove]}: rate limits through {@code /api/limits} and {@code
 * /api/handlers/{name}/rate}. Without a subcommand it lists them.
 */
@Command(
    name = "limits",
    description = {
      "List rate limits; set or remove one at run time (set/remove: admin).",
      "A limit set here replaces the configured one on every scheduler instance until removed."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  tasklane limits",
      "  tasklane limits set partner-api 50/s --burst 10",
      "  tasklane limits set order.cancel 5/s --handler",
      "  tasklane limits remove partner-api"
    })
public final class LimitsCommand extends ApiCommand {
  @Override
  public Integer call() {
    return list();
  }

  @Command(
      name = "list",
      description = "List every rate limit, configured or set at run time.",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane limits list", "  tasklane limits list --json | jq '.limits[].name'"})
  int list() {
    ApiClient.Reply r = api().get("/api/limits", Map.of());
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    Table t = new Table("NAME", "RATE", "BURST", "SOURCE", "CONFIGURED", "UPDATED", "BY");
    for (JsonNode l : r.json().path("limits")) {
      JsonNode conf = l.path("configuredRate");
      t.row(
          text(l, "name"),
          text(l, "rate"),
          text(l, "burst"),
          text(l, "source"),
          conf.isTextual() ? conf.asText() + " burst " + text(l, "configuredBurst") : null,
          text(l, "updatedAtIso"),
          text(l, "updatedBy"));
    }
    t.print(out());
    return Exit.OK;
  }

  @Command(
      name = "set",
      description = {
        "Set a named limit (or, with --handler, a handler's own rate) at run time:",
        "RATE is <starts>/s, <starts>/min or <starts>/h."
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  tasklane limits set partner-api 50/s --burst 10",
        "  tasklane limits set order.cancel 600/min --handler"
      })
  int set(
      @Parameters(paramLabel = "NAME") String name,
      @Parameters(paramLabel = "RATE") String rate,
      @Option(names = "--burst", paramLabel = "N", description = "starts at once, 1 to 100000 (1)")
          Integer burst,
      @Option(names = "--handler", description = "NAME is a handler: set its own rate")
          boolean handler) {
    if (burst != null && (burst < 1 || burst > 100_000)) {
      throw new UsageException("--burst " + burst + " is outside 1 to 100000");
    }
    Map<String, String> q = new HashMap<>();
    q.put("rate", rate);
    q.put("burst", burst == null ? null : burst.toString());
    ApiClient.Reply r = api().post(path(name, handler), q, null);
    return done(r, "set");
  }

  @Command(
      name = "remove",
      description = {
        "Remove a limit set at run time: the configured one applies again (a named limit",
        "that is not configured is then undefined, and its tasks wait until it is)."
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  tasklane limits remove partner-api",
        "  tasklane limits remove order.cancel --handler"
      })
  int remove(
      @Parameters(paramLabel = "NAME") String name,
      @Option(names = "--handler", description = "NAME is a handler: remove its own rate")
          boolean handler) {
    return done(api().delete(path(name, handler)), "remove");
  }

  private static String path(String name, boolean handler) {
    return handler
        ? "/api/handlers/" + ApiClient.segment(name) + "/rate"
        : "/api/limits/" + ApiClient.segment(name);
  }

  private int done(ApiClient.Reply r, String verb) {
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    JsonNode l = r.json();
    String rate = text(l, "rate");
    out()
        .println(
            verb
                + " "
                + text(l, "name")
                + ": "
                + (rate == null ? "no limit" : rate + " burst " + text(l, "burst"))
                + (rate == null ? "" : " (" + text(l, "source") + ")"));
    out().flush();
    return Exit.OK;
  }
}
