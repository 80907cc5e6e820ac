package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.HandlerSetting;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tasklane handlers [list|show|pause|resume|concurrency|lanes|set-lanes]}: {@code
 * /api/handlers}. Without a subcommand it lists the handlers.
 */
@Command(
    name = "handlers",
    description = {
      "List handlers and their lanes; pause, resume, size one or set its lanes",
      "(pause/resume: operator; concurrency/set-lanes: admin)."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  tasklane handlers",
      "  tasklane handlers show order.cancel",
      "  tasklane handlers pause order.cancel",
      "  tasklane handlers concurrency order.cancel 8",
      "  tasklane handlers lanes order.cancel",
      "  tasklane handlers set-lanes order.cancel --max-per-key 2 --on-dead SKIP"
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
    out().println("  lanes: " + lanesSetting(h));
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

  @Command(
      name = "lanes",
      description = {
        "Show a handler's lanes: how many are active, blocked (a DEAD task holds an",
        "ordered lane) and waiting, and the lanes that matter most (blocked first, then",
        "the most tasks waiting) with their holders and first waiting task."
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  tasklane handlers lanes order.cancel",
        "  tasklane handlers lanes order.cancel --limit 100 --json | jq '.top[].key'"
      })
  int lanes(
      @Parameters(paramLabel = "HANDLER") String name,
      @Option(names = "--limit", paramLabel = "N", description = "lanes listed, 1 to 500 (20)")
          Integer limit) {
    if (limit != null && (limit < 1 || limit > 500)) {
      throw new UsageException("--limit " + limit + " is outside 1 to 500");
    }
    Map<String, String> q = new HashMap<>();
    q.put("limit", limit == null ? null : limit.toString());
    ApiClient.Reply r = api().get("/api/handlers/" + ApiClient.segment(name) + "/lanes", q);
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    JsonNode l = r.json();
    out()
        .println(
            text(l, "handler")
                + ": lanes "
                + l.path("lanes").asLong()
                + ", active "
                + l.path("active").asLong()
                + ", blocked "
                + l.path("blocked").asLong()
                + ", waiting "
                + l.path("waiting").asLong()
                + "; "
                + lanesSetting(l)
                + (l.path("partial").asBoolean()
                    ? "; PARTIAL: no answer from " + join(l.path("missing"))
                    : ""));
    JsonNode top = l.path("top");
    if (top.isEmpty()) {
      out().println("no lane");
      out().flush();
      return Exit.OK;
    }
    Table t = new Table("KEY", "KIND", "HOLDERS", "WAITING", "HEAD", "BLOCKED");
    for (JsonNode lane : top) {
      List<String> holders = new ArrayList<>();
      lane.path("holders")
          .fields()
          .forEachRemaining(e -> holders.add(e.getKey() + ":" + e.getValue().asText()));
      t.row(
          text(lane, "key"),
          text(lane, "kind"),
          holders.isEmpty() ? null : String.join(", ", holders),
          lane.path("waiting").asLong(),
          text(lane, "head"),
          lane.path("blocked").asBoolean() ? "BLOCKED" : "");
    }
    t.print(out());
    return Exit.OK;
  }

  @Command(
      name = "set-lanes",
      description = {
        "Set a handler's limit per concurrency key (none: no limit) and what a DEAD task",
        "does to its ordered lane (BLOCK: holds it until retried or discarded; SKIP: the",
        "lane moves on). An option left out keeps its value."
      },
      footerHeading = "%nExamples:%n",
      footer = {
        "  tasklane handlers set-lanes order.cancel --max-per-key 2",
        "  tasklane handlers set-lanes order.cancel --max-per-key none --on-dead SKIP"
      })
  int setLanes(
      @Parameters(paramLabel = "HANDLER") String name,
      @Option(
              names = "--max-per-key",
              paramLabel = "N|none|default",
              description =
                  "tasks of one concurrency key at once, 1 to 100000; none (no limit) or default"
                      + " (the scheduler's handlers.<name>.max-per-key)")
          String maxPerKey,
      @Option(
              names = "--on-dead",
              paramLabel = "BLOCK|SKIP|default",
              description =
                  "an ordered lane whose task went DEAD: BLOCK, SKIP or default (the scheduler's"
                      + " handlers.<name>.on-dead)")
          String onDead) {
    if (maxPerKey == null && onDead == null) {
      throw new UsageException("set-lanes needs --max-per-key or --on-dead (or both)");
    }
    Map<String, String> q = new HashMap<>();
    if (maxPerKey != null) {
      String v = maxPerKey.trim().toLowerCase(Locale.ROOT);
      if (!v.equals("none") && !v.equals("default")) {
        int n;
        try {
          n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
          n = 0;
        }
        if (n < 1 || n > HandlerSetting.MAX_PER_KEY) {
          throw new UsageException(
              "--max-per-key "
                  + maxPerKey
                  + " must be an integer from 1 to "
                  + HandlerSetting.MAX_PER_KEY
                  + ", none or default");
        }
        v = Integer.toString(n);
      }
      q.put("maxPerKey", v);
    }
    if (onDead != null) {
      String v = onDead.trim().toUpperCase(Locale.ROOT);
      v = v.equals("DEFAULT") ? "default" : v;
      if (!HandlerSetting.ON_DEAD.contains(v) && !v.equals("default")) {
        throw new UsageException("--on-dead " + onDead + " must be BLOCK, SKIP or default");
      }
      q.put("onDead", v);
    }
    ApiClient.Reply r = api().post("/api/handlers/" + ApiClient.segment(name) + "/lanes", q, null);
    if (json()) {
      printJson(r.body());
    } else {
      out().println("set-lanes " + name + ": " + lanesSetting(r.json()));
      out().flush();
    }
    return Exit.OK;
  }

  /** {@code max per key N|unlimited, on dead BLOCK|SKIP} of a handler's view or lanes. */
  private static String lanesSetting(JsonNode h) {
    JsonNode max = h.path("maxPerKey");
    String onDead = text(h, "onDead");
    return "max per key "
        + (max.isNumber() ? max.asText() : "unlimited")
        + ", on dead "
        + (onDead == null ? "BLOCK" : onDead);
  }

  private static String join(JsonNode array) {
    List<String> parts = new ArrayList<>();
    array.forEach(e -> parts.add(e.asText()));
    return parts.isEmpty() ? "an instance" : String.join(", ", parts);
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
