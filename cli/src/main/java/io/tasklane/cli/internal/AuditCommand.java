package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tasklane audit}: {@code GET /api/audit}, who did what through the API. */
@Command(
    name = "audit",
    description = "Who did what through the API, newest first.",
    footerHeading = "%nExamples:%n",
    footer = {"  tasklane audit", "  tasklane audit --since 2h --limit 200"})
public final class AuditCommand extends ApiCommand {
  @Option(names = "--since", paramLabel = "TIME", description = "ISO-8601 instant or 1h, 2d...")
  String since;

  @Option(names = "--limit", paramLabel = "N", description = "at most N entries")
  Integer limit;

  @Override
  public Integer call() {
    Map<String, String> q = new LinkedHashMap<>();
    Long from = Times.parse("--since", since, session().console().clock());
    q.put("since", from == null ? null : from.toString());
    q.put("limit", limit == null ? null : limit.toString());
    ApiClient.Reply r = api().get("/api/audit", q);
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    Table t = new Table("AT", "ACTOR", "ACTION", "TARGET", "OUTCOME", "DETAIL");
    for (JsonNode e : r.json().path("entries")) {
      t.row(
          Times.iso(e, "at"),
          text(e, "actor"),
          text(e, "action"),
          text(e, "target"),
          text(e, "outcome"),
          text(e, "detail"));
    }
    t.print(out());
    return Exit.OK;
  }
}
