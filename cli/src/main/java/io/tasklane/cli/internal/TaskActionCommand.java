package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.WireCodec;
import io.tasklane.core.config.ConfigException;
import io.tasklane.core.config.Durations;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tasklane tasks cancel|retry|discard|trigger}: with an id, {@code POST
 * /api/tasks/{id}/<action>} and the outcome (exit 0 applied, 5 ignored or pending); without an id,
 * the bulk form over the search flags ({@link BulkRun}). An answer without an outcome (a scheduler
 * that only says 202) is followed by reading the task until the action shows or {@code --wait}
 * passes. Runs on the main thread.
 */
public abstract class TaskActionCommand extends ApiCommand {
  /** The longest {@code --wait} the API accepts. */
  static final Duration MAX_WAIT = Duration.ofSeconds(30);

  @Parameters(arity = "0..1", paramLabel = "ID", description = "the task id (none: bulk form)")
  String id;

  @Option(
      names = "--routing-key",
      paramLabel = "KEY",
      description = "the task's ordering key, when it was enqueued with one")
  String routingKey;

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      defaultValue = "5s",
      description = "how long to wait for the outcome, up to 30s (${DEFAULT-VALUE})")
  String wait;

  @Option(names = "--reason", description = "why (kept in the audit log)")
  String reason;

  @Option(names = "--yes", description = "bulk form: do not ask for confirmation")
  boolean yes;

  @Mixin TaskFilter filter;

  abstract TaskAction action();

  @Override
  public Integer call() throws InterruptedException {
    Duration bound = waitBound();
    Map<String, String> filterQuery = filter.query(session().console().clock());
    if (id == null) {
      if (!action().bulk()) {
        throw new UsageException(spec.name() + " needs a task id");
      }
      if (filterQuery.isEmpty()) {
        throw new UsageException(
            spec.name()
                + " without an id acts on every task matching the search flags: give at least"
                + " one (--state, --handler, --since, ...)");
      }
      return new BulkRun(session(), action(), filter, reason, yes).run();
    }
    if (!filterQuery.isEmpty()) {
      throw new UsageException(spec.name() + " takes an id or search flags, not both");
    }
    return single(bound);
  }

  private int single(Duration bound) throws InterruptedException {
    JsonNode before = TaskShowCommand.fetch(api(), id, routingKey).json();
    Map<String, String> q = new LinkedHashMap<>();
    q.put("routingKey", routingKey);
    q.put("reason", reason);
    q.put("wait", Durations.format(bound));
    ApiClient.Reply r =
        api().post("/api/tasks/" + ApiClient.segment(id) + "/" + action().path(), q, null);
    JsonNode answer = r.json();
    if (!answer.has("outcome")) {
      answer = followUp(before, bound);
    }
    String outcome = answer.path("outcome").asText();
    if (json()) {
      printJson(answer);
    } else {
      String state = text(answer, "state");
      String why = text(answer, "reason");
      out()
          .printf(
              "%s %s: %s%s%s%n",
              action().path(),
              id,
              outcome,
              why == null ? "" : " (" + why + ")",
              state == null ? "" : ", state " + state);
      if ("pending".equals(outcome)) {
        out().println("(the scheduler has not applied it within " + wait + "; see tasks show)");
      }
      out().flush();
    }
    return "applied".equals(outcome) ? Exit.OK : Exit.NOT_APPLIED;
  }

  /** Reads the task until the action shows or {@code bound} passes: the contract's answer. */
  private JsonNode followUp(JsonNode before, Duration bound) throws InterruptedException {
    long deadline = session().console().clock().millis() + bound.toMillis();
    JsonNode after = before;
    while (true) {
      after = read();
      if (action().applied(before, after)) {
        return answer("applied", after);
      }
      if (session().console().clock().millis() >= deadline) {
        return answer("pending", after);
      }
      Thread.sleep(200);
    }
  }

  private JsonNode read() {
    try {
      return TaskShowCommand.fetch(api(), id, routingKey).json();
    } catch (ApiException e) {
      if (e.status() == 404) {
        return null;
      }
      throw e;
    }
  }

  private JsonNode answer(String outcome, JsonNode view) {
    ObjectNode o = WireCodec.mapper().createObjectNode();
    o.put("id", id);
    o.put("action", action().path());
    o.put("outcome", outcome);
    o.putNull("reason");
    if (view == null) {
      o.put("state", "GONE");
    } else {
      o.put("state", view.path("state").asText());
    }
    return o;
  }

  private Duration waitBound() {
    Duration d;
    try {
      d = Durations.parse("--wait", wait);
    } catch (ConfigException e) {
      throw new UsageException(e.getMessage());
    }
    if (d.isNegative() || d.compareTo(MAX_WAIT) > 0) {
      throw new UsageException("--wait " + wait + " is outside 0s to 30s");
    }
    return d;
  }

  @Command(
      name = "cancel",
      description = "Cancel a task, or every task matching the search flags.",
      footerHeading = "%nExamples:%n",
      footer = {
        "  tasklane tasks cancel 0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10 --reason paid",
        "  tasklane tasks cancel --state PENDING --handler report.nightly --yes"
      })
  public static final class Cancel extends TaskActionCommand {
    @Override
    TaskAction action() {
      return TaskAction.CANCEL;
    }
  }

  @Command(
      name = "retry",
      description = "Retry a DEAD task (retry-dead), or every one matching the search flags.",
      footerHeading = "%nExamples:%n",
      footer = {
        "  tasklane tasks retry 0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10",
        "  tasklane tasks retry --state DEAD --handler order.cancel --since 1h"
      })
  public static final class Retry extends TaskActionCommand {
    @Override
    TaskAction action() {
      return TaskAction.RETRY;
    }
  }

  @Command(
      name = "discard",
      description = "Discard (purge) a DEAD task, or every one matching the search flags.",
      footerHeading = "%nExamples:%n",
      footer = {
        "  tasklane tasks discard 0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10",
        "  tasklane tasks discard --state DEAD --error-type com.acme.BadOrder"
      })
  public static final class Discard extends TaskActionCommand {
    @Override
    TaskAction action() {
      return TaskAction.DISCARD;
    }
  }

  @Command(
      name = "trigger",
      description = "Dispatch a waiting task now instead of at its due time.",
      footerHeading = "%nExamples:%n",
      footer = {"  tasklane tasks trigger 0b6f5d1e-3c1a-4c53-9a57-5c3f2f9d6e10 --wait 10s"})
  public static final class Trigger extends TaskActionCommand {
    @Override
    TaskAction action() {
      return TaskAction.TRIGGER;
    }
  }
}
