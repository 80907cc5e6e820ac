package io.tasklane.scheduler.internal.api;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.micronaut.core.annotation.Internal;
import io.tasklane.core.WireCodec;
import io.tasklane.scheduler.ApiSettings;
import io.tasklane.scheduler.SchedulerConfig;
import io.tasklane.scheduler.SchedulerConfig.Role;
import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hides payload fields in every API answer that carries a payload. Each field named {@code payload}
 * in the answer is the payload of the nearest enclosing object's {@code handler} (the task's
 * envelope, a refused duplicate, a schedule's definition): the fields the configuration names
 * sensitive for that handler ({@code api.redact.<handler>}) become {@code "***"} for every role,
 * and for a viewer the whole payload does unless {@code api.viewer-payloads} is on. A payload whose
 * handler is unknown is hidden whole. The free text a handler or an enqueuing app wrote next to a
 * payload (an error's message and stack, an attempt's error, a task's headers, handler log lines)
 * can hold the same data, and cannot be redacted field by field: it follows the payload rule for a
 * viewer, shown as {@code "***"} unless {@code api.viewer-payloads} is on. Stateless after
 * construction, thread-safe.
 */
@Singleton
@Internal
public final class Redactor {
  /** What a hidden value is shown as. */
  static final String MASK = "***";

  private final Map<String, List<JsonPointer>> sensitive = new HashMap<>();
  private final boolean viewerPayloads;

  @jakarta.inject.Inject
  Redactor(SchedulerConfig config) {
    this(config.api());
  }

  public Redactor(ApiSettings api) {
    api.redact().keySet().forEach(h -> sensitive.put(h, api.sensitive(h)));
    this.viewerPayloads = api.viewerPayloads();
  }

  /** The fields of free text that follow the payload rule for a viewer. */
  static final java.util.Set<String> FREE_TEXT =
      java.util.Set.of("message", "stack", "error", "headers");

  /**
   * {@code json} (an API answer: a task, its log lines, a schedule) with its payloads redacted for
   * {@code role}, and for a viewer that sees no payloads its free text ({@link #FREE_TEXT}) too.
   */
  String apply(String json, Role role) {
    boolean hideText = role == Role.VIEWER && !viewerPayloads;
    if (json == null || (!hideText && !json.contains("\"payload\""))) {
      return json;
    }
    JsonNode tree = WireCodec.readTree(json);
    JsonNode taskHandler = tree.at("/task/handler"); // a task view: the refused duplicate's too
    walk(tree, taskHandler.isTextual() ? taskHandler.asText() : null, role);
    if (hideText) {
      maskFreeText(tree);
    }
    return WireCodec.encodeToString(tree);
  }

  private static void maskFreeText(JsonNode node) {
    if (node instanceof ObjectNode o) {
      List<String> names = new java.util.ArrayList<>();
      o.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        JsonNode v = o.get(name);
        if (FREE_TEXT.contains(name) && !v.isNull()) {
          o.put(name, MASK);
        } else if (!"payload".equals(name)) {
          maskFreeText(v);
        }
      }
    } else if (node instanceof ArrayNode a) {
      a.forEach(Redactor::maskFreeText);
    }
  }

  private void walk(JsonNode node, String handler, Role role) {
    if (node instanceof ObjectNode o) {
      String h = o.path("handler").isTextual() ? o.get("handler").asText() : handler;
      if (o.has("payload")) {
        o.set("payload", redact(o.get("payload"), h, role));
      }
      o.fields()
          .forEachRemaining(
              e -> {
                if (!"payload".equals(e.getKey())) {
                  walk(e.getValue(), h, role);
                }
              });
    } else if (node instanceof ArrayNode a) {
      a.forEach(n -> walk(n, handler, role));
    }
  }

  /**
   * Why {@code role} may not filter tasks by payload field {@code field}, or null when it may: a
   * search or a bulk job's counts answer which tasks hold a value, so a viewer that sees no
   * payloads may not filter by them, and no role may filter by a field that {@code api.redact}
   * hides for any handler (or a field above or below one), since no role sees those unredacted.
   * Called by {@link TaskFilter} only, for searches and bulk jobs alike.
   */
  String payloadSearchRefusal(JsonPointer field, Role role) {
    if (role == Role.VIEWER && !viewerPayloads) {
      return "a viewer token cannot search payloads, which are hidden from it"
          + " (tasklane.scheduler.api.viewer-payloads)";
    }
    List<String> asked = PayloadFilter.segments(field);
    for (List<JsonPointer> fields : sensitive.values()) {
      for (JsonPointer hidden : fields) {
        List<String> h = PayloadFilter.segments(hidden);
        int common = Math.min(asked.size(), h.size());
        if (asked.subList(0, common).equals(h.subList(0, common))) {
          return field
              + " is a redacted field, or above or below one (tasklane.scheduler.api.redact.*),"
              + " and cannot be searched";
        }
      }
    }
    return null;
  }

  /** One payload of {@code handler} as {@code role} may see it. */
  JsonNode redact(JsonNode payload, String handler, Role role) {
    if (payload == null || payload.isNull() || payload.isMissingNode()) {
      return payload;
    }
    if (handler == null || (role == Role.VIEWER && !viewerPayloads)) {
      return TextNode.valueOf(MASK);
    }
    List<JsonPointer> fields = sensitive.getOrDefault(handler, List.of());
    if (fields.isEmpty()) {
      return payload;
    }
    JsonNode copy = payload.deepCopy();
    for (JsonPointer p : fields) {
      if (p.matches()) {
        return TextNode.valueOf(MASK);
      }
      JsonNode parent = copy.at(p.head());
      String last = p.last().getMatchingProperty();
      if (parent instanceof ObjectNode po && po.has(last)) {
        po.put(last, MASK);
      } else if (parent instanceof ArrayNode pa) {
        int i = p.last().getMatchingIndex();
        if (i >= 0 && i < pa.size()) {
          pa.set(i, TextNode.valueOf(MASK));
        }
      }
    }
    return copy;
  }
}
