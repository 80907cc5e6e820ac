package io.tasklane.core.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.tasklane.core.RetryPolicy;
import io.tasklane.core.Shard;
import io.tasklane.core.Source;
import io.tasklane.core.TaskEnvelope;
import io.tasklane.core.TaskOptions;
import io.tasklane.core.TaskTopicRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link TaskEnvelope} read and written with Jackson's streaming API: the same JSON as the data
 * binding writes (byte for byte, {@code HotWireTest} compares them), without its per-record
 * reflection, type-id buffering and creator bookkeeping. The reader accepts only the plain shape
 * the writers produce; anything else (a field of an unexpected JSON type, a duplicate field, a
 * missing {@code v} or {@code type}) makes it give up with {@link Unusual}, and the caller reads
 * the record again with the data binding, which then decides — so a record reads the same either
 * way, errors included. Stateless and thread-safe.
 */
final class EnvelopeJson {
  private EnvelopeJson() {}

  /**
   * Reads the object the parser stands at (its {@code START_OBJECT} is the current token).
   *
   * @return the envelope, or null when the object's {@code type} is not {@code task}
   * @throws Unusual when the object is not in the plain shape
   */
  static TaskEnvelope read(JsonParser p) throws IOException {
    expect(p.currentToken() == JsonToken.START_OBJECT);
    String type = null;
    Integer v = null;
    String id = null;
    String handler = null;
    String key = null;
    String orderingKey = null;
    JsonNode payload = null;
    long dueAt = 0;
    int maxAttempts = 0;
    long timeoutMs = 0;
    RetryPolicy backoff = null;
    List<String> dependsOn = null;
    Map<String, String> headers = null;
    long createdAt = 0;
    Source source = null;
    Shard shard = null;
    TaskOptions options = null;
    Fields.Seen seen = new Fields.Seen();
    for (String name = Fields.next(p, seen); name != null; name = Fields.next(p, seen)) {
      JsonToken t = p.currentToken();
      switch (name) {
        case "type" -> type = Fields.string(p, t);
        case "v" -> v = Fields.integer(p, t);
        case "id" -> id = Fields.string(p, t);
        case "handler" -> handler = Fields.string(p, t);
        case "key" -> key = Fields.string(p, t);
        case "orderingKey" -> orderingKey = Fields.string(p, t);
        case "payload" -> payload = p.readValueAsTree();
        case "dueAt" -> dueAt = Fields.number(p, t);
        case "maxAttempts" -> maxAttempts = Fields.integer(p, t);
        case "timeoutMs" -> timeoutMs = Fields.number(p, t);
        case "backoff" -> backoff = t == JsonToken.VALUE_NULL ? null : backoff(p, t);
        case "dependsOn" -> dependsOn = Fields.strings(p, t);
        case "headers" -> headers = headers(p, t);
        case "createdAt" -> createdAt = Fields.number(p, t);
        case "source" -> source = t == JsonToken.VALUE_NULL ? null : source(p, t);
        case "shard" -> shard = t == JsonToken.VALUE_NULL ? null : shard(p, t);
        case "options" ->
            options = t == JsonToken.VALUE_NULL ? null : p.readValueAs(TaskOptions.class);
        default -> p.skipChildren();
      }
    }
    expect(type != null && v != null);
    if (!TaskTopicRecord.TASK_TYPE.equals(type)) {
      return null;
    }
    return new TaskEnvelope(
        v,
        id,
        handler,
        key,
        orderingKey,
        payload,
        dueAt,
        maxAttempts,
        timeoutMs,
        backoff,
        dependsOn,
        headers,
        createdAt,
        source,
        shard,
        options);
  }

  /** Writes {@code t} as one object, its {@code type} first. */
  static void write(JsonGenerator g, TaskEnvelope t) throws IOException {
    g.writeStartObject();
    g.writeStringField("type", TaskTopicRecord.TASK_TYPE);
    g.writeNumberField("v", t.v());
    Fields.stringIfSet(g, "id", t.id());
    Fields.stringIfSet(g, "handler", t.handler());
    Fields.stringIfSet(g, "key", t.key());
    Fields.stringIfSet(g, "orderingKey", t.orderingKey());
    g.writeFieldName("payload");
    g.writeTree(t.payload());
    g.writeNumberField("dueAt", t.dueAt());
    g.writeNumberField("maxAttempts", t.maxAttempts());
    g.writeNumberField("timeoutMs", t.timeoutMs());
    g.writeFieldName("backoff");
    backoff(g, t.backoff());
    g.writeArrayFieldStart("dependsOn");
    for (String id : t.dependsOn()) {
      g.writeString(id);
    }
    g.writeEndArray();
    g.writeObjectFieldStart("headers");
    for (Map.Entry<String, String> h : t.headers().entrySet()) {
      g.writeStringField(h.getKey(), h.getValue());
    }
    g.writeEndObject();
    g.writeNumberField("createdAt", t.createdAt());
    if (t.source() != null) {
      g.writeObjectFieldStart("source");
      g.writeStringField("table", t.source().table());
      g.writeNumberField("rowId", t.source().rowId());
      g.writeEndObject();
    }
    if (t.shard() != null) {
      g.writeObjectFieldStart("shard");
      g.writeNumberField("index", t.shard().index());
      g.writeNumberField("total", t.shard().total());
      g.writeEndObject();
    }
    if (!t.options().isEmpty()) {
      g.writeFieldName("options");
      g.writeObject(t.options());
    }
    g.writeEndObject();
  }

  private static RetryPolicy backoff(JsonParser p, JsonToken t) throws IOException {
    expect(t == JsonToken.START_OBJECT);
    String kind = null;
    Long maxDelayMs = null;
    Long baseMs = null;
    List<Long> delaysMs = null;
    Fields.Seen seen = new Fields.Seen();
    for (String name = Fields.next(p, seen); name != null; name = Fields.next(p, seen)) {
      JsonToken value = p.currentToken();
      switch (name) {
        case "kind" -> kind = Fields.string(p, value);
        case "maxDelayMs" -> maxDelayMs = Fields.number(p, value);
        case "baseMs" -> baseMs = Fields.number(p, value);
        case "delaysMs" -> delaysMs = longs(p, value);
        default -> p.skipChildren();
      }
    }
    expect(kind != null);
    return switch (kind) {
      case "sidekiq" -> new RetryPolicy.Sidekiq(orZero(maxDelayMs));
      case "exponential" -> new RetryPolicy.Exponential(orZero(baseMs), orZero(maxDelayMs));
      case "fixed" -> new RetryPolicy.Fixed(delaysMs);
      default -> throw Unusual.INSTANCE;
    };
  }

  private static void backoff(JsonGenerator g, RetryPolicy policy) throws IOException {
    g.writeStartObject();
    if (policy instanceof RetryPolicy.Sidekiq s) {
      g.writeStringField("kind", "sidekiq");
      g.writeNumberField("maxDelayMs", s.maxDelayMs());
    } else if (policy instanceof RetryPolicy.Exponential e) {
      g.writeStringField("kind", "exponential");
      g.writeNumberField("baseMs", e.baseMs());
      g.writeNumberField("maxDelayMs", e.maxDelayMs());
    } else if (policy instanceof RetryPolicy.Fixed f) {
      g.writeStringField("kind", "fixed");
      g.writeArrayFieldStart("delaysMs");
      for (long d : f.delaysMs()) {
        g.writeNumber(d);
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }

  private static Source source(JsonParser p, JsonToken t) throws IOException {
    expect(t == JsonToken.START_OBJECT);
    String table = null;
    long rowId = 0;
    Fields.Seen seen = new Fields.Seen();
    for (String name = Fields.next(p, seen); name != null; name = Fields.next(p, seen)) {
      JsonToken value = p.currentToken();
      switch (name) {
        case "table" -> table = Fields.string(p, value);
        case "rowId" -> rowId = Fields.number(p, value);
        default -> p.skipChildren();
      }
    }
    return new Source(table, rowId);
  }

  private static Shard shard(JsonParser p, JsonToken t) throws IOException {
    expect(t == JsonToken.START_OBJECT);
    int index = 0;
    int total = 0;
    Fields.Seen seen = new Fields.Seen();
    for (String name = Fields.next(p, seen); name != null; name = Fields.next(p, seen)) {
      JsonToken value = p.currentToken();
      switch (name) {
        case "index" -> index = Fields.integer(p, value);
        case "total" -> total = Fields.integer(p, value);
        default -> p.skipChildren();
      }
    }
    return new Shard(index, total);
  }

  private static Map<String, String> headers(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    expect(t == JsonToken.START_OBJECT);
    Map<String, String> headers = new LinkedHashMap<>();
    for (JsonToken f = p.nextToken(); f != JsonToken.END_OBJECT; f = p.nextToken()) {
      String name = p.currentName();
      expect(p.nextToken() == JsonToken.VALUE_STRING);
      expect(headers.put(name, p.getText()) == null);
    }
    return headers;
  }

  private static List<Long> longs(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    expect(t == JsonToken.START_ARRAY);
    List<Long> values = new ArrayList<>();
    for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
      expect(e == JsonToken.VALUE_NUMBER_INT);
      values.add(p.getLongValue());
    }
    return values;
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }

  static void expect(boolean plain) {
    if (!plain) {
      throw Unusual.INSTANCE;
    }
  }
}
