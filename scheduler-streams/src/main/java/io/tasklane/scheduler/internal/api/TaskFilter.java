package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.TaskState;
import io.tasklane.scheduler.SchedulerConfig.Role;
import io.tasklane.scheduler.internal.lifecycle.TaskRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which tasks a search or a bulk action is about: the filter keys of {@code GET /api/tasks} and of
 * a bulk body's {@code "filter"}. Every key is optional; given keys must all match. Times are epoch
 * millis or ISO-8601 instants, ranges inclusive. Immutable; the one place a filter is checked,
 * built by {@link #fromQuery} and {@link #fromJson} alike: each key has one value of its shape
 * (arrays only for the lists {@code state} and {@code handler}, objects never), a value out of its
 * limits is a {@link BadQueryException} naming it (400), and a payload field the caller may not
 * search ({@link Redactor#payloadSearchRefusal}) is {@link BadQueryException#forbidden} (403).
 *
 * @param raw the given keys and values (forwarded to other instances; never shown: {@link #shown})
 * @param states the states, or null for all
 * @param handlers the handlers, or null for all
 * @param payload the payload field and value to match, or null
 */
record TaskFilter(
    Map<String, String> raw,
    Set<TaskState> states,
    Set<String> handlers,
    String key,
    String idPrefix,
    String errorType,
    long createdFrom,
    long createdTo,
    long updatedFrom,
    long updatedTo,
    long dueFrom,
    long dueTo,
    PayloadFilter payload) {

  /** The filter keys, in the order they are documented. */
  static final List<String> KEYS =
      List.of(
          "state",
          "handler",
          "key",
          "idPrefix",
          "errorType",
          "createdFrom",
          "createdTo",
          "updatedFrom",
          "updatedTo",
          "dueFrom",
          "dueTo",
          "payload");

  /** The keys whose value is a list: comma-separated, or a JSON array of strings in a body. */
  private static final Set<String> LISTS = Set.of("state", "handler");

  static final int MAX_TEXT = 500;
  static final int MAX_HANDLERS = 100;

  TaskFilter {
    raw = Map.copyOf(raw);
  }

  /**
   * The filter keys of query parameters {@code params} (other keys are the caller's to check), for
   * a caller with {@code role}: a key given more than once is refused, naming the key and its rule.
   */
  static TaskFilter fromQuery(Map<String, List<String>> params, Redactor redactor, Role role) {
    Map<String, String> raw = new LinkedHashMap<>();
    for (String k : KEYS) {
      List<String> v = params.getOrDefault(k, List.of());
      if (v.size() > 1) {
        throw new BadQueryException(k, "given " + v.size() + " times; " + rule(k));
      }
      if (!v.isEmpty()) {
        raw.put(k, v.get(0));
      }
    }
    return parse(raw, redactor, role);
  }

  /**
   * The filter object of a bulk body, for a caller with {@code role}: every key a known one whose
   * value is a string or a number (or, for {@code state} and {@code handler}, an array of strings);
   * anything else refused naming {@code filter.<key>} and its rule.
   */
  static TaskFilter fromJson(JsonNode filter, Redactor redactor, Role role) {
    if (!filter.isObject()) {
      throw new BadQueryException("filter", "is required: an object of search filters");
    }
    Map<String, String> raw = new LinkedHashMap<>();
    filter
        .fields()
        .forEachRemaining(
            f -> {
              String k = f.getKey();
              if (!KEYS.contains(k)) {
                throw new BadQueryException("filter." + k, "unknown; the filters are " + KEYS);
              }
              JsonNode v = f.getValue();
              if (v.isTextual() || v.isNumber()) {
                raw.put(k, v.asText());
              } else if (v.isArray() && LISTS.contains(k)) {
                StringBuilder list = new StringBuilder();
                for (JsonNode e : v) {
                  if (!e.isTextual()) {
                    throw new BadQueryException("filter." + k, rule(k));
                  }
                  list.append(list.length() == 0 ? "" : ",").append(e.asText());
                }
                raw.put(k, list.toString());
              } else if (!v.isNull()) {
                throw new BadQueryException("filter." + k, rule(k));
              }
            });
    return parse(raw, redactor, role);
  }

  /** The shape key {@code k} takes, as a refusal of another shape says. */
  private static String rule(String k) {
    if (k.equals("payload")) {
      return PayloadFilter.RULE;
    }
    return LISTS.contains(k)
        ? "must be one comma-separated list (in a bulk body also an array of strings)"
        : "must be one string or number; arrays and objects are refused";
  }

  private static TaskFilter parse(Map<String, String> given, Redactor redactor, Role role) {
    Map<String, String> raw = new LinkedHashMap<>();
    given.forEach(
        (k, v) -> {
          if (v != null && !v.isEmpty()) {
            raw.put(k, v);
          }
        });
    PayloadFilter payload = null;
    if (raw.containsKey("payload")) {
      payload = PayloadFilter.parse(raw.get("payload"));
      String refused = redactor.payloadSearchRefusal(payload.field(), role);
      if (refused != null) {
        throw BadQueryException.forbidden("payload", refused);
      }
    }
    return new TaskFilter(
        raw,
        FilterValues.states(raw.get("state")),
        FilterValues.handlers(raw.get("handler")),
        FilterValues.text(raw, "key"),
        FilterValues.idPrefix(raw.get("idPrefix")),
        FilterValues.text(raw, "errorType"),
        FilterValues.time(raw, "createdFrom", Long.MIN_VALUE),
        FilterValues.time(raw, "createdTo", Long.MAX_VALUE),
        FilterValues.time(raw, "updatedFrom", Long.MIN_VALUE),
        FilterValues.time(raw, "updatedTo", Long.MAX_VALUE),
        FilterValues.time(raw, "dueFrom", Long.MIN_VALUE),
        FilterValues.time(raw, "dueTo", Long.MAX_VALUE),
        payload);
  }

  /**
   * This filter narrowed to {@code only} (states) and to changes at or before {@code updatedBefore}
   * (a bulk job's check of which of its tasks its commands have not reached yet).
   */
  TaskFilter narrowed(Set<TaskState> only, long updatedBefore) {
    Map<String, String> r = new LinkedHashMap<>(raw);
    r.put("state", only.stream().map(TaskState::name).collect(Collectors.joining(",")));
    r.put("updatedTo", String.valueOf(updatedBefore));
    return new TaskFilter(
        r,
        only,
        handlers,
        key,
        idPrefix,
        errorType,
        createdFrom,
        createdTo,
        updatedFrom,
        updatedBefore,
        dueFrom,
        dueTo,
        payload);
  }

  /** The filter as job views and audit records show it: a payload filter's value masked. */
  Map<String, String> shown() {
    Map<String, String> out = new LinkedHashMap<>(raw);
    if (payload != null) {
      out.put("payload", payload.masked());
    }
    return out;
  }

  /** True when the filter needs more than the index entry: the record must be read. */
  boolean needsRecord() {
    return key != null
        || errorType != null
        || dueFrom != Long.MIN_VALUE
        || dueTo != Long.MAX_VALUE
        || payload != null;
  }

  /** The checks of the index entry's parts: id and creation time. */
  boolean matchesEntry(String id, long createdAt) {
    return (idPrefix == null || id.startsWith(idPrefix))
        && createdAt >= createdFrom
        && createdAt <= createdTo;
  }

  /** The checks only the record can answer (key, error type, due time, payload). */
  boolean matchesRecord(TaskRecord r) {
    if (key != null && !key.equals(r.task().key())) {
      return false;
    }
    if (errorType != null && (r.lastError() == null || !errorType.equals(r.lastError().type()))) {
      return false;
    }
    if (r.dueAt() < dueFrom || r.dueAt() > dueTo) {
      return false;
    }
    return payload == null || payload.matches(r.task().payload());
  }
}
