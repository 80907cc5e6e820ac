package io.tasklane.cli.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tasklane.core.WireCodec;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The task search flags, shared by {@code tasks list} and the bulk forms of {@code tasks
 * cancel|retry|discard}; a picocli mixin. Each flag is a key of {@code GET /api/tasks}; times take
 * an ISO-8601 instant or a duration back from now ({@link Times}). Filled by picocli, read on the
 * command's thread.
 */
public final class TaskFilter {
  @Option(
      names = "--state",
      description =
          "PENDING, WAITING, NO_HANDLER, DISPATCHED, RETRYING," + " SUCCEEDED, DEAD or CANCELLED")
  String state;

  @Option(names = "--handler", description = "handler name")
  String handler;

  @Option(names = "--key", description = "idempotency key (with --handler)")
  String key;

  @Option(names = "--id-prefix", paramLabel = "PREFIX", description = "start of the task id")
  String idPrefix;

  @Option(names = "--error-type", paramLabel = "CLASS", description = "last error's type")
  String errorType;

  @Option(names = "--created-from", paramLabel = "TIME", description = "created at or after")
  String createdFrom;

  @Option(names = "--created-to", paramLabel = "TIME", description = "created before")
  String createdTo;

  @Option(
      names = {"--updated-from", "--since"},
      paramLabel = "TIME",
      description = "last changed at or after (--since 1h: in the last hour)")
  String updatedFrom;

  @Option(names = "--updated-to", paramLabel = "TIME", description = "last changed before")
  String updatedTo;

  @Option(names = "--due-from", paramLabel = "TIME", description = "due at or after")
  String dueFrom;

  @Option(names = "--due-to", paramLabel = "TIME", description = "due before")
  String dueTo;

  @Option(
      names = "--payload",
      paramLabel = "/PTR=VALUE",
      description = "payload field (a JSON pointer) equal to a value, e.g. /orderId=42")
  String payload;

  /**
   * The filter as the search's query keys (the flags given, times in epoch millis).
   *
   * @throws UsageException naming a flag whose value is refused
   */
  public Map<String, String> query(Clock clock) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("state", state == null ? null : state.toUpperCase(java.util.Locale.ROOT));
    q.put("handler", handler);
    q.put("key", key);
    q.put("idPrefix", idPrefix);
    q.put("errorType", errorType);
    time(q, "createdFrom", "--created-from", createdFrom, clock);
    time(q, "createdTo", "--created-to", createdTo, clock);
    time(q, "updatedFrom", "--updated-from/--since", updatedFrom, clock);
    time(q, "updatedTo", "--updated-to", updatedTo, clock);
    time(q, "dueFrom", "--due-from", dueFrom, clock);
    time(q, "dueTo", "--due-to", dueTo, clock);
    if (payload != null) {
      int eq = payload.indexOf('=');
      if (!payload.startsWith("/") || eq < 2) {
        throw new UsageException(
            "--payload '" + payload + "' must be a JSON pointer, '=', a value: /orderId=42");
      }
    }
    q.put("payload", payload);
    q.values().removeIf(java.util.Objects::isNull);
    return q;
  }

  /** The filter as the JSON object of a bulk request (the same keys; times as numbers). */
  public ObjectNode json(Clock clock) {
    ObjectNode o = WireCodec.mapper().createObjectNode();
    query(clock)
        .forEach(
            (k, v) -> {
              if (k.endsWith("From") || k.endsWith("To")) {
                o.put(k, Long.parseLong(v));
              } else {
                o.put(k, v);
              }
            });
    return o;
  }

  /** The filter for people: {@code state=DEAD handler=order.cancel}. */
  public String describe(Clock clock) {
    StringBuilder b = new StringBuilder();
    query(clock)
        .forEach(
            (k, v) ->
                b.append(b.length() == 0 ? "" : " ")
                    .append(k)
                    .append('=')
                    .append(
                        k.endsWith("From") || k.endsWith("To") ? Times.iso(Long.parseLong(v)) : v));
    return b.toString();
  }

  private static void time(Map<String, String> q, String key, String flag, String v, Clock c) {
    Long t = Times.parse(flag, v, c);
    q.put(key, t == null ? null : Long.toString(t));
  }
}
