package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.WireCodec;
import io.tasklane.core.WireFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tasklane schedules list|show|pause|resume|trigger|delete|define}: {@code /api/schedules}.
 * Without a subcommand it lists the schedules.
 */
@Command(
    name = "schedules",
    description = "List, inspect, fire and define recurring schedules.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  tasklane schedules list --all",
      "  tasklane schedules show nightly-report",
      "  tasklane schedules trigger nightly-report",
      "  tasklane schedules define nightly-report --file nightly-report.json"
    })
public final class SchedulesCommand extends ApiCommand {
  /** The largest definition file {@code define} sends. */
  static final long MAX_DEFINITION_BYTES = 1 << 20;

  @Override
  public Integer call() {
    return list(null, null, false);
  }

  @Command(
      name = "list",
      description = "List the schedules.",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane schedules list", "  tasklane schedules list --all --json"})
  int list(
      @Option(names = "--limit", paramLabel = "N", description = "schedules per page")
          Integer limit,
      @Option(names = "--cursor", description = "continue a listing") String cursor,
      @Option(names = "--all", description = "follow nextCursor to the last page") boolean all) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("limit", limit == null ? null : limit.toString());
    q.put("cursor", cursor);
    Table t =
        new Table("NAME", "HANDLER", "ENABLED", "PAUSED", "NEXT FIRE", "LAST FIRE", "OUTCOME");
    var merged = WireCodec.mapper().createObjectNode();
    var rows = merged.putArray("schedules");
    String next;
    do {
      JsonNode page = api().get("/api/schedules", q).json();
      for (JsonNode s : page.path("schedules")) {
        rows.add(s);
        JsonNode last = s.path("lastFire");
        t.row(
            text(s, "name"),
            text(s, "handler"),
            text(s, "enabled"),
            text(s, "paused"),
            Times.iso(s, "nextFireAt"),
            Times.iso(last, "fireAt"),
            text(last, "outcome"));
      }
      next = text(page, "nextCursor");
      q.put("cursor", next);
    } while (all && next != null);
    merged.put("nextCursor", next);
    if (json()) {
      printJson(merged);
      return Exit.OK;
    }
    t.print(out());
    if (next != null) {
      out().println("more: --cursor " + next + "  (or --all)");
      out().flush();
    }
    return Exit.OK;
  }

  @Command(
      name = "show",
      description = "Show a schedule: definition, next fires and fire history.",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane schedules show nightly-report"})
  int show(@Parameters(paramLabel = "NAME") String name) {
    ApiClient.Reply r = api().get(path(name), Map.of());
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    JsonNode s = r.json();
    JsonNode d = s.path("definition");
    out().printf("%-10s %s%n", "name", text(s, "name"));
    out().printf("%-10s %s%n", "handler", text(d, "handler"));
    String when = d.hasNonNull("cron") ? "cron " + text(d, "cron") : "every " + text(d, "every");
    out().printf("%-10s %s%s%n", "when", when, d.hasNonNull("zone") ? " " + text(d, "zone") : "");
    out().printf("%-10s %s%n", "enabled", text(s, "enabled"));
    out().printf("%-10s %s%n", "version", text(s, "version"));
    out().printf("%-10s %s%n", "next fire", Times.iso(s, "nextFireAt"));
    for (JsonNode n : s.path("nextFires")) {
      out().printf("%-10s %s%n", "", n.asText());
    }
    out().println();
    Table t = new Table("FIRE ID", "FIRE AT", "KIND", "OUTCOME", "LATENESS MS", "TASKS", "REASON");
    for (JsonNode f : s.path("fires")) {
      t.row(
          text(f, "fireId"),
          Times.iso(f, "fireAt"),
          text(f, "kind"),
          text(f, "outcome"),
          text(f, "latenessMs"),
          f.path("tasks").size(),
          text(f, "reason"));
    }
    t.print(out());
    return Exit.OK;
  }

  @Command(
      name = "pause",
      description = "Pause a schedule (admin).",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane schedules pause nightly-report"})
  int pause(@Parameters(paramLabel = "NAME") String name) {
    return done("pause", name, api().post(path(name) + "/pause", Map.of(), null));
  }

  @Command(
      name = "resume",
      description = "Resume a paused schedule (admin).",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane schedules resume nightly-report"})
  int resume(@Parameters(paramLabel = "NAME") String name) {
    return done("resume", name, api().post(path(name) + "/resume", Map.of(), null));
  }

  @Command(
      name = "trigger",
      description = "Fire a schedule now (operator); the same --trigger-id never fires twice.",
      footerHeading = "%nExamples:%n",
      footer = {
        "  tasklane schedules trigger nightly-report",
        "  tasklane schedules trigger nightly-report --trigger-id rerun-2026-11-23"
      })
  int trigger(
      @Parameters(paramLabel = "NAME") String name,
      @Option(names = "--trigger-id", paramLabel = "ID", description = "idempotency id")
          String triggerId) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("triggerId", triggerId);
    ApiClient.Reply r = api().post(path(name) + "/trigger", q, null);
    if (json()) {
      printJson(r.body());
    } else {
      JsonNode j = r.json();
      out().printf("trigger %s: accepted, fire %s%n", name, text(j, "fireId"));
      out().flush();
    }
    return Exit.OK;
  }

  @Command(
      name = "delete",
      description = "Delete a schedule (admin); asks first unless --yes.",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane schedules delete nightly-report --yes"})
  int delete(
      @Parameters(paramLabel = "NAME") String name,
      @Option(names = "--yes", description = "do not ask for confirmation") boolean yes)
      throws IOException {
    if (!yes) {
      var err = session().console().err();
      err.printf("delete schedule %s? [y/N] ", name);
      err.flush();
      String a = session().console().in().readLine();
      if (a == null || !(a.strip().equalsIgnoreCase("y") || a.strip().equalsIgnoreCase("yes"))) {
        err.println("not confirmed: nothing done");
        err.flush();
        return Exit.NOT_APPLIED;
      }
    }
    return done("delete", name, api().delete(path(name)));
  }

  @Command(
      name = "define",
      description = "Create or replace a schedule from a definition file (admin).",
      footerHeading = "%nExamples:%n",
      footer = {
        "  tasklane schedules define nightly-report --file nightly-report.json",
        "  where nightly-report.json is e.g.",
        "  {\"handler\":\"report.nightly\",\"cron\":\"0 2 * * *\",\"zone\":\"Europe/Paris\"}"
      })
  int define(
      @Parameters(paramLabel = "NAME") String name,
      @Option(names = "--file", required = true, paramLabel = "FILE", description = "JSON file")
          Path file) {
    JsonNode body;
    try {
      if (Files.size(file) > MAX_DEFINITION_BYTES) {
        throw new UsageException("--file " + file + " is larger than 1 MiB");
      }
      body = WireCodec.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new UsageException("--file: cannot read " + file + ": " + e);
    } catch (WireFormatException e) {
      throw new UsageException("--file " + file + ": " + e.getMessage());
    }
    if (!body.isObject()) {
      throw new UsageException("--file " + file + ": a schedule definition is a JSON object");
    }
    return done("define", name, api().put(path(name), body));
  }

  private int done(String verb, String name, ApiClient.Reply r) {
    if (json()) {
      printJson(r.body());
    } else {
      out().println(verb + " schedule " + name + ": done");
      out().flush();
    }
    return Exit.OK;
  }

  private static String path(String name) {
    return "/api/schedules/" + ApiClient.segment(name);
  }
}
