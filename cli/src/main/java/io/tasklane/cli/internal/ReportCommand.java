package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tasklane report}: {@code GET /api/reports}, a handler's outcomes per time bucket. */
@Command(
    name = "report",
    description = "A handler's outcomes, run times and lateness per minute, hour or day.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  tasklane report --handler order.cancel",
      "  tasklane report --handler order.cancel --bucket minute --since 30m"
    })
public final class ReportCommand extends ApiCommand {
  @Option(names = "--handler", required = true, description = "handler name")
  String handler;

  @Option(
      names = "--bucket",
      defaultValue = "hour",
      paramLabel = "minute|hour|day",
      description = "bucket size (${DEFAULT-VALUE})")
  String bucket;

  @Option(
      names = "--since",
      defaultValue = "24h",
      paramLabel = "TIME",
      description = "from (${DEFAULT-VALUE} ago)")
  String since;

  @Option(names = "--until", paramLabel = "TIME", description = "to (default now)")
  String until;

  @Override
  public Integer call() {
    if (!bucket.equals("minute") && !bucket.equals("hour") && !bucket.equals("day")) {
      throw new UsageException("--bucket " + bucket + " must be minute, hour or day");
    }
    Clock clock = session().console().clock();
    Map<String, String> q = new LinkedHashMap<>();
    q.put("handler", handler);
    q.put("bucket", bucket);
    q.put("since", Long.toString(Times.parse("--since", since, clock)));
    Long to = Times.parse("--until", until, clock);
    q.put("until", to == null ? null : to.toString());
    ApiClient.Reply r = api().get("/api/reports", q);
    if (json()) {
      printJson(r.body());
      return Exit.OK;
    }
    Table t =
        new Table(
            "START",
            "SUCCEEDED",
            "FAILED",
            "DEAD",
            "CANCELLED",
            "RUN P50/P99/MAX MS",
            "LATE P50/P99/MAX MS");
    for (JsonNode p : r.json().path("points")) {
      t.row(
          Times.iso(p, "start"),
          text(p, "succeeded"),
          text(p, "failed"),
          text(p, "dead"),
          text(p, "cancelled"),
          triple(p.path("runTimeMs")),
          triple(p.path("latenessMs")));
    }
    t.print(out());
    return Exit.OK;
  }

  private static String triple(JsonNode n) {
    return n.path("p50").asText("-")
        + "/"
        + n.path("p99").asText("-")
        + "/"
        + n.path("max").asText("-");
  }
}
