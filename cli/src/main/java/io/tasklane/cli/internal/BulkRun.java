package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.WireCodec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The bulk form of {@code tasks cancel|retry|discard}: lists the matching tasks first (their count
 * and the listing's {@code asOf}, so tasks created later are never touched), asks for confirmation
 * showing the count unless {@code --yes}, posts {@code POST /api/tasks/bulk/<action>} and follows
 * {@code GET /api/jobs/{job}} until the job is DONE or FAILED. Exit 0 when done without failures, 4
 * with failures, 5 when not confirmed. Progress goes to stderr, so stdout keeps the result alone.
 * Runs on the main thread.
 */
final class BulkRun {
  /** Pages counted before the count is shown as "at least". */
  static final int MAX_COUNT_PAGES = 200;

  /** Between two reads of the job. */
  static final long POLL_MS = 500;

  private final Session session;
  private final TaskAction action;
  private final TaskFilter filter;
  private final String reason;
  private final boolean yes;

  BulkRun(Session session, TaskAction action, TaskFilter filter, String reason, boolean yes) {
    this.session = session;
    this.action = action;
    this.filter = filter;
    this.reason = reason;
    this.yes = yes;
  }

  int run() throws InterruptedException {
    Clock clock = session.console().clock();
    PrintWriter err = session.console().err();
    ApiClient api = session.api();
    Map<String, String> q = filter.query(clock);
    q.put("limit", "500");
    long count = 0;
    String asOf = null;
    boolean partial = false;
    String next;
    int pages = 0;
    do {
      JsonNode page = api.get("/api/tasks", q).json();
      asOf = asOf == null ? page.path("asOf").asText() : asOf;
      count += page.path("tasks").size();
      partial |= page.path("partial").asBoolean();
      next = page.path("nextCursor").isTextual() ? page.path("nextCursor").asText() : null;
      q.put("cursor", next);
      q.put("asOf", asOf);
    } while (next != null && ++pages < MAX_COUNT_PAGES);
    String what = (next != null || partial ? "at least " : "") + count;
    String described = filter.describe(clock);
    if (count == 0) {
      err.println("no task matches " + described + " as of " + Times.iso(Long.parseLong(asOf)));
      err.flush();
      return Exit.OK;
    }
    if (!yes && !confirm(err, what, described)) {
      err.println("not confirmed: nothing done");
      err.flush();
      return Exit.NOT_APPLIED;
    }
    ObjectNode body = WireCodec.mapper().createObjectNode();
    body.set("filter", filter.json(clock));
    body.put("asOf", Long.parseLong(asOf));
    Map<String, String> params = new LinkedHashMap<>();
    params.put("reason", reason);
    JsonNode accepted = api.post("/api/tasks/bulk/" + action.path(), params, body).json();
    String job = accepted.path("job").asText();
    err.println("job " + job + ": " + action.path() + " on " + what + " tasks");
    err.flush();
    JsonNode status = follow(api, job, err);
    long failed = status.path("failed").asLong();
    boolean ok = "DONE".equals(status.path("state").asText()) && failed == 0;
    if (session.json()) {
      session.console().out().println(WireCodec.encodeToString(status));
    } else {
      session
          .console()
          .out()
          .printf(
              "job %s %s: matched %d, applied %d, ignored %d, failed %d%n",
              job,
              status.path("state").asText(),
              status.path("matched").asLong(),
              status.path("applied").asLong(),
              status.path("ignored").asLong(),
              failed);
    }
    session.console().out().flush();
    return ok ? Exit.OK : Exit.BULK_FAILED;
  }

  private boolean confirm(PrintWriter err, String count, String described) {
    err.printf("%s %s tasks matching %s? [y/N] ", action.path(), count, described);
    err.flush();
    try {
      String line = session.console().in().readLine();
      String a = line == null ? "" : line.strip().toLowerCase(Locale.ROOT);
      return a.equals("y") || a.equals("yes");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads the job until it is DONE or FAILED, printing its counts when they change. */
  private JsonNode follow(ApiClient api, String job, PrintWriter err) throws InterruptedException {
    String last = "";
    while (true) {
      JsonNode s = api.get("/api/jobs/" + ApiClient.segment(job), Map.of()).json();
      String state = s.path("state").asText();
      String line =
          String.format(
              "  %s: matched %d, applied %d, ignored %d, failed %d",
              state,
              s.path("matched").asLong(),
              s.path("applied").asLong(),
              s.path("ignored").asLong(),
              s.path("failed").asLong());
      if (!line.equals(last)) {
        err.println(line);
        err.flush();
        last = line;
      }
      if (!"RUNNING".equals(state)) {
        return s;
      }
      Thread.sleep(POLL_MS);
    }
  }
}
