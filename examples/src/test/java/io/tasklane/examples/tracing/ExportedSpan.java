package io.tasklane.examples.tracing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One span as an app exported it through OpenTelemetry's {@code logging-otlp} exporter: one OTLP
 * JSON {@code ResourceSpans} object per line (resource, scope spans), ids in hex.
 */
record ExportedSpan(
    String service,
    String traceId,
    String spanId,
    String parentSpanId,
    String name,
    String kind,
    long startNanos,
    long endNanos,
    Map<String, String> attributes,
    List<String> linkedSpanIds,
    String status) {

  private static final ObjectMapper JSON = new ObjectMapper();

  String attribute(String key) {
    return attributes.get(key);
  }

  double millis() {
    return (endNanos - startNanos) / 1e6;
  }

  /** Every span in {@code file}; none when it does not exist yet. */
  static List<ExportedSpan> read(Path file) {
    List<ExportedSpan> out = new ArrayList<>();
    if (!Files.exists(file)) {
      return out;
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (String line : lines) {
      if (!line.startsWith("{")) {
        continue;
      }
      JsonNode root;
      try {
        root = JSON.readTree(line);
      } catch (IOException e) {
        continue; // a line still being written
      }
      // logging-otlp writes one ResourceSpans object a line; a wrapped form holds a list of them.
      Iterable<JsonNode> resources =
          root.has("resourceSpans") ? root.get("resourceSpans") : List.of(root);
      for (JsonNode rs : resources) {
        String service = "";
        for (JsonNode a : rs.path("resource").path("attributes")) {
          if (a.path("key").asText().equals("service.name")) {
            service = value(a.path("value"));
          }
        }
        for (JsonNode ss : rs.path("scopeSpans")) {
          for (JsonNode s : ss.path("spans")) {
            out.add(of(service, s));
          }
        }
      }
    }
    return out;
  }

  private static ExportedSpan of(String service, JsonNode s) {
    Map<String, String> attributes = new LinkedHashMap<>();
    for (JsonNode a : s.path("attributes")) {
      attributes.put(a.path("key").asText(), value(a.path("value")));
    }
    List<String> links = new ArrayList<>();
    for (JsonNode l : s.path("links")) {
      links.add(l.path("spanId").asText());
    }
    return new ExportedSpan(
        service,
        s.path("traceId").asText(),
        s.path("spanId").asText(),
        s.path("parentSpanId").asText(""),
        s.path("name").asText(),
        s.path("kind").asText(),
        s.path("startTimeUnixNano").asLong(),
        s.path("endTimeUnixNano").asLong(),
        attributes,
        links,
        s.path("status").path("code").asText(""));
  }

  private static String value(JsonNode v) {
    for (String type : List.of("stringValue", "intValue", "boolValue", "doubleValue")) {
      if (v.has(type)) {
        return v.get(type).asText();
      }
    }
    return v.toString();
  }
}
